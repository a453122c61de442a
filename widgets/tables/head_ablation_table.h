#pragma once

#include "widgets/common/exportable.h"
#include "widgets/tables/head_ablation_data.h"
#include "widgets/tables/head_ablation_measure.h"

#include <QColor>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableWidget;

namespace ascope {

/// The result of a head ablation: for the chosen attention group, a layers x heads table of how
/// much the chosen measure (accuracy, BLEU, loss) changes versus the baseline when a head is
/// dropped, or when only it is kept, plus a column for dropping the whole layer. Cells are
/// coloured on a scale centred on "no change" (red: worse, blue: better) that saturates at the
/// largest change of a single head, so one decisive layer does not wash out every head. Below,
/// the controls to start an ablation on N validation samples, cancel it, and follow progress.
class HeadAblationTable : public QWidget, public Exportable {
  Q_OBJECT

 public:
  explicit HeadAblationTable(QWidget* parent = nullptr);

  /// Replaces the result (also for a partial one while the ablation runs); keeps the chosen
  /// group, measure and mode where the new result has them.
  void setResult(HeadAblationData data);
  const HeadAblationData& result() const { return data_; }
  void clear();

  void setRunning(bool running);
  bool isRunning() const { return running_; }
  /// `done` of `total` evaluations finished.
  void setProgress(int done, int total);
  /// One line for people under the controls, e.g. an error; empty hides it.
  void setMessage(const QString& message);

  void setCurrentGroup(const QString& group);
  QString currentGroup() const;
  void setMeasure(const HeadAblationMeasure& measure);
  HeadAblationMeasure measure() const;
  /// false: cells show "drop this head"; true: "keep only this head".
  void setKeepOnly(bool keep_only);
  bool isKeepOnly() const;

  /// Size of the shown group's table; the drop-layer column is column headCount().
  int layerCount() const { return layers_; }
  int headCount() const { return heads_; }
  /// The shown change at 0-based (layer, head); head -1 for the drop-layer column.
  std::optional<double> delta(int layer, int head) const;
  /// Largest |change| the colours tell apart (the ends of the scale).
  double colorLimit() const { return color_limit_; }
  /// The colour of a change: the background for 0, reaching red (worse) or blue (better) at
  /// ±colorLimit() for the shown measure.
  QColor colorFor(double delta) const;

  QTableWidget* table() const { return table_; }
  QComboBox* groupSelector() const { return group_box_; }
  QComboBox* measureSelector() const { return measure_box_; }
  QComboBox* modeSelector() const { return mode_box_; }
  QSpinBox* samplesBox() const { return samples_box_; }
  QPushButton* runButton() const { return run_button_; }
  QPushButton* cancelButton() const { return cancel_button_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* baselineLabel() const { return baseline_label_; }
  QLabel* legendLabel() const { return legend_label_; }
  QLabel* messageLabel() const { return message_label_; }
  bool isShowingEmptyHint() const;

  /// "ablation": the coloured table of the shown group, measure and mode as a figure; every row
  /// of the result as CSV (the baseline first, as ablation.csv has it).
  QString exportBaseName() const override { return QStringLiteral("ablation"); }
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  ExportResult exportCsv(const QString& path) const override;

 Q_SIGNALS:
  /// 0-based; head -1 for the drop-layer column.
  void headPicked(QString group, int layer, int head);
  void runRequested(int samples);
  void cancelRequested();

 protected:
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void syncSelectors();
  void fillTable();
  void updateBaseline();
  void updateLegend();
  void fitRows();
  QString cellToolTip(const HeadAblationRow& row) const;

  HeadAblationData data_;
  int layers_ = 0;
  int heads_ = 0;
  std::vector<std::optional<double>> deltas_;  ///< layers_ x (heads_ + 1), row-major
  double color_limit_ = 1.0;
  bool running_ = false;

  QComboBox* group_box_ = nullptr;
  QComboBox* measure_box_ = nullptr;
  QComboBox* mode_box_ = nullptr;
  QLabel* baseline_label_ = nullptr;
  QLabel* legend_label_ = nullptr;
  QLabel* message_label_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QTableWidget* table_ = nullptr;
  QSpinBox* samples_box_ = nullptr;
  QPushButton* run_button_ = nullptr;
  QPushButton* cancel_button_ = nullptr;
  QProgressBar* progress_ = nullptr;
};

}  // namespace ascope
