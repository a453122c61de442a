#pragma once
// File → Export…: every panel to a folder (PNG, SVG, PDF and CSV each) with the attention and
// positional-encoding figure bundles (every kind of attention, every layer, the enlarged head,
// the CLS overlay, every encoding view; each with a JSON sidecar), the run's metrics as CSV, and
// the attention matrices shown as CSV. Figures render on the GUI thread, off screen, into a
// private temporary folder; what reaches the destination (a slow share, a full disk, a FIFO in
// the way) is written by a worker thread, atomically, so the window never waits on it.
#include <QFuture>
#include <QObject>
#include <QString>
#include <QStringList>

#include <QList>

#include "app/gui/views/news/run_news_reader.h"
#include "widgets/common/exportable.h"
#include "widgets/common/figure_context.h"

class QWidget;

namespace ascope {

class AttentionPresenter;
class CurrentRun;
class CurvesPresenter;
class EncodingPresenter;

class ExportActions : public QObject {
  Q_OBJECT

 public:
  /// Panels are rendered into a staging folder "<temp>/AttentionScope-export-PID-XXXXXX" first.
  static constexpr const char* kStagingPrefix = "AttentionScope-export";

  /// Exports every dock of `docks` (the window's dock owners) as its exportables, and the
  /// attention and encoding docks as figure bundles; `curves` gives the loss panel's data when a
  /// run has no folder; `run` names the run and task in figure titles and sidecars.
  /// Removes the staging folders of exports whose process was killed (removeStaleStagingFolders).
  ExportActions(AttentionPresenter* attention, EncodingPresenter* encoding, CurvesPresenter* curves,
                QList<const RunNewsReader*> docks, const CurrentRun* run, QWidget* dialog_parent);

  /// Removes the staging folders in the temp folder whose process is no longer alive (a kill -9
  /// during "Export all panels" or --export-dir left 0.4–4 MB there); returns how many.
  static int removeStaleStagingFolders();

  /// Writes <folder>/<panel>.{png,svg,pdf,csv} for every exportable panel, the attention bundle
  /// under <folder>/attention/<kind>/, the encoding views under <folder>/positional_encoding/
  /// and every attention weight to <folder>/attention_<run>_step<N>.csv. The figures render
  /// here (GUI thread), `between` called before each; the copy runs on a worker.
  QFuture<ExportResult> exportAllAsync(const QString& folder,
                                       const ExportSize& size = ExportSize::forSlides(),
                                       const BetweenFigures& between = {}) const;
  /// exportAllAsync with a progress dialog (window-modal, Cancel) whose event loop turns between
  /// two figures, so the window repaints and the run goes on meanwhile.
  QFuture<ExportResult> exportAllWithProgress(const QString& folder,
                                              const ExportSize& size = ExportSize::forSlides());
  /// The run's metrics.csv (every train step and validation pass) copied to `path`; without a run
  /// folder, the loss panel's data.
  QFuture<ExportResult> exportMetricsAsync(const QString& path, const QString& run_dir) const;
  /// Every attention weight shown: step, group, layer, head, query, key, weight.
  QFuture<ExportResult> exportAttentionAsync(const QString& path) const;

  /// What "Export all panels" leaves out now and why ("the attention: no snapshot is shown"):
  /// said with the export, which otherwise reads as every panel.
  QStringList leftOut() const;

  // The same, waiting for the result (scripted mode and tests).
  ExportResult exportAll(const QString& folder,
                         const ExportSize& size = ExportSize::forSlides()) const;
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
  /// The run, task, step and probe sample shown now.
  FigureContext figureContext() const;
  void reportLater(const QFuture<ExportResult>& result, const QString& done);
  void report(const ExportResult& result, const QString& done);

  AttentionPresenter* attention_;
  EncodingPresenter* encoding_;
  CurvesPresenter* curves_;
  QList<const RunNewsReader*> docks_;
  const CurrentRun* run_;
  QWidget* parent_;
};

}  // namespace ascope
