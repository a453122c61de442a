#pragma once

#include <QStringList>

#include <vector>

#include "widgets/common/exportable.h"
#include "widgets/common/themed_plot.h"

namespace ascope {

/// Bars of a cell's breakdown (the products that sum to a logit, a row's weights, the four
/// token/position parts): one bar per label, one of them drawn in the accent colour, a line at
/// zero, the title above. Exports itself with its numbers.
class ComputationBarPlot : public ThemedPlot, public Exportable {
  Q_OBJECT

 public:
  explicit ComputationBarPlot(QWidget* parent = nullptr);

  /// NaN values are left out (a masked key); `highlighted` (-1: none) is the accent bar.
  void setBars(const QString& title, const QStringList& labels, const std::vector<double>& values,
               int highlighted = -1);
  void clearBars();
  const std::vector<double>& values() const { return values_; }
  const QStringList& labels() const { return labels_; }
  QString title() const { return title_text_; }
  void setExportBaseName(const QString& name) { export_name_ = name; }
  /// What an exported slide says before the plot's own title: "encoder · layer 1 · head 2 · …".
  void setSlideHeading(const QString& heading) { slide_heading_ = heading; }

  QString exportBaseName() const override { return export_name_; }
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  ExportResult exportCsv(const QString& path) const override;
  void setExportTitle(const QString& title) override;

 protected:
  bool adjustLayout() override;

 private:
  void render();

  QCPTextElement* title_ = nullptr;
  QCPBars* bars_ = nullptr;
  QCPBars* accent_ = nullptr;
  QString title_text_;
  QString export_title_;
  QString slide_heading_;
  QStringList labels_;
  std::vector<double> values_;
  int highlighted_ = -1;
  QString export_name_ = QStringLiteral("computation_bars");
};

}  // namespace ascope
