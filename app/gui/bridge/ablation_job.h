#pragma once
// Runs a head ablation of a run folder (engine/ablation/run_ablation.h) on a worker thread for the
// GUI: it reads the run's newest checkpoint, so a live training goes on untouched on its own
// thread, and progress and the result arrive as queued signals, so the window never waits.
// Cancelling takes effect after the evaluation in progress.
#include <QString>

#include "app/gui/bridge/worker_job.h"
#include "engine/runfolder/ablation/ablation_table.h"

namespace ascope {

class AblationJob : public WorkerJob {
  Q_OBJECT

 public:
  explicit AblationJob(QObject* parent = nullptr);

  /// Starts ablating the run in `run_dir` on `samples` validation samples of `data` (the data set
  /// the user named; "" for a run of built-in data); false (and nothing started) while one runs.
  bool start(const QString& run_dir, int samples, const QString& data = QString());

 Q_SIGNALS:
  void progress(int done, int total);
  /// `ok`: `table` holds the result (also written to RUN/ablation.csv); else `error` says why.
  void finished(bool ok, const AblationTable& table, const QString& error);
};

}  // namespace ascope
