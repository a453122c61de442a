#include "app/gui/bridge/ablation_job.h"

#include "engine/ablation/run_ablation.h"

namespace ascope {

AblationJob::AblationJob(QObject* parent) : WorkerJob(parent) {}

bool AblationJob::start(const QString& run_dir, int samples, const QString& data) {
  const std::string dir = run_dir.toStdString();
  return launch(
      [dir, samples, data = data.toStdString()](const Post& post, const std::atomic<bool>* cancel) {
        AblationOptions options;
        options.samples = samples;
        // threads stays 0: LibTorch's thread count is process-wide and a training may be running.
        const Expected<AblationTable> result = ablateRun(
            dir, options,
            [&post, cancel](int done, int total) {
              post([done, total](WorkerJob& job) {
                Q_EMIT static_cast<AblationJob&>(job).progress(done, total);
              });
              return !cancel->load();
            },
            data);
        const AblationTable table = result.ok() ? *result : AblationTable{};
        const QString error = result.ok() ? QString() : QString::fromStdString(result.error());
        post.finish([ok = result.ok(), table, error](WorkerJob& job) {
          Q_EMIT static_cast<AblationJob&>(job).finished(ok, table, error);
        });
      });
}

}  // namespace ascope
