#include "app/gui/bridge/evaluation_job.h"

#include <chrono>

namespace ascope {

EvaluationJob::EvaluationJob(QObject* parent) : WorkerJob(parent) {}

bool EvaluationJob::start(const EvaluationRequest& request) {
  return launch([request](const Post& post, const std::atomic<bool>* cancel) {
    // At most ~10 progress calls a second reach the GUI thread, however small the batches.
    auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    ScoringProgress progress;
    progress.cancel = cancel;
    progress.report = [&post, &last](std::int64_t done, std::int64_t total) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(100) && done < total) return;
      last = now;
      post([done, total](WorkerJob& job) {
        Q_EMIT static_cast<EvaluationJob&>(job).progress(done, total);
      });
    };
    Expected<EvaluationReport> result = evaluateRun(request, progress);
    std::shared_ptr<const EvaluationReport> report;
    QString error;
    if (result.ok()) {
      report = std::make_shared<const EvaluationReport>(std::move(*result));
    } else {
      error = QString::fromStdString(result.error());
    }
    post.finish([report, error](WorkerJob& job) {
      Q_EMIT static_cast<EvaluationJob&>(job).finished(report != nullptr, report, error);
    });
  });
}

}  // namespace ascope
