#pragma once
// File → Export…: every panel to a folder (PNG, SVG, PDF and CSV each), the run's metrics as CSV,
// and the attention matrices shown as CSV. Runs on the GUI thread (panels render themselves).
#include <QObject>
#include <QString>

#include "app/gui/window/panels.h"
#include "widgets/exportable.h"

class QWidget;

namespace ascope {

class ExportActions : public QObject {
  Q_OBJECT

 public:
  ExportActions(const Panels& panels, QWidget* dialog_parent);

  /// Writes <folder>/<panel>.{png,svg,pdf,csv} for every exportable panel.
  ExportResult exportAll(const QString& folder, const ExportSize& size = ExportSize{}) const;
  /// The run's metrics.csv (every train step and validation pass) copied to `path`; without a run
  /// folder, the loss panel's data.
  ExportResult exportMetrics(const QString& path, const QString& run_dir) const;
  /// Every weight of the attention group shown: layer, head, query, key, weight.
  ExportResult exportAttention(const QString& path) const;

  // Interactive versions: ask for the destination, report the outcome.
  void exportAllInteractively();
  void exportMetricsInteractively(const QString& run_dir);
  void exportAttentionInteractively();

 Q_SIGNALS:
  void message(const QString& text);

 private:
  void report(const ExportResult& result, const QString& done);

  Panels panels_;
  QWidget* parent_;
};

}  // namespace ascope
