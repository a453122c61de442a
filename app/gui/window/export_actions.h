#pragma once
// File → Export…: every panel to a folder (PNG, SVG, PDF and CSV each), the run's metrics as CSV,
// and the attention matrices shown as CSV. Panels render themselves on the GUI thread, into a
// private temporary folder; what reaches the destination (a slow share, a full disk, a FIFO in
// the way) is written by a worker thread, atomically, so the window never waits on it.
#include <QFuture>
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
  QFuture<ExportResult> exportAllAsync(const QString& folder,
                                       const ExportSize& size = ExportSize{}) const;
  /// The run's metrics.csv (every train step and validation pass) copied to `path`; without a run
  /// folder, the loss panel's data.
  QFuture<ExportResult> exportMetricsAsync(const QString& path, const QString& run_dir) const;
  /// Every weight of the attention group shown: layer, head, query, key, weight.
  QFuture<ExportResult> exportAttentionAsync(const QString& path) const;

  // The same, waiting for the result (scripted mode and tests).
  ExportResult exportAll(const QString& folder, const ExportSize& size = ExportSize{}) const;
  ExportResult exportMetrics(const QString& path, const QString& run_dir) const;
  ExportResult exportAttention(const QString& path) const;

  // Interactive versions: ask for the destination, report the outcome.
  void exportAllInteractively();
  void exportMetricsInteractively(const QString& run_dir);
  void exportAttentionInteractively();

 Q_SIGNALS:
  void message(const QString& text);

 private:
  /// Reports `result` once it is there (a message, or a dialog for a failure).
  void reportLater(const QFuture<ExportResult>& result, const QString& done);
  void report(const ExportResult& result, const QString& done);

  Panels panels_;
  QWidget* parent_;
};

}  // namespace ascope
