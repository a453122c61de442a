#pragma once
// Scores a run on a data set (engine/evaluation/run_evaluation.h) on a worker thread for the GUI:
// it loads the run's checkpoint and the data itself, so a live training goes on untouched, and
// progress and the report arrive as queued signals. Cancel takes effect at the next batch.
#include <QString>

#include <memory>

#include "app/gui/bridge/worker_job.h"
#include "engine/evaluation/run_evaluation.h"

namespace ascope {

class EvaluationJob : public WorkerJob {
  Q_OBJECT

 public:
  explicit EvaluationJob(QObject* parent = nullptr);

  /// Starts scoring; false (and nothing started) while one runs.
  bool start(const EvaluationRequest& request);

 Q_SIGNALS:
  void progress(qint64 done, qint64 total);
  /// `ok`: `report` holds the result; else `error` says why ("cancelled" after cancel()).
  void finished(bool ok, std::shared_ptr<const EvaluationReport> report, const QString& error);
};

}  // namespace ascope
