#include "app/gui/window/ablation_job.h"

#include <QMetaObject>
#include <QPointer>

#include "engine/ablation/run_ablation.h"

namespace ascope {

AblationJob::AblationJob(QObject* parent) : QObject(parent) {}

AblationJob::~AblationJob() {
  cancel();
  join();
}

void AblationJob::join() {
  if (worker_.joinable()) worker_.join();
}

void AblationJob::cancel() {
  if (cancel_) cancel_->store(true);
}

bool AblationJob::start(const QString& run_dir, int samples) {
  if (running_) return false;
  join();  // the previous worker has posted its result already
  running_ = true;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  const std::shared_ptr<std::atomic<bool>> cancel = cancel_;
  const QPointer<AblationJob> self(this);
  const std::string dir = run_dir.toStdString();
  worker_ = std::thread([self, cancel, dir, samples] {
    const auto post = [self](auto&& call) {
      QMetaObject::invokeMethod(
          self.data(),
          [self, call = std::forward<decltype(call)>(call)]() mutable {
            if (self) call(self.data());
          },
          Qt::QueuedConnection);
    };
    AblationOptions options;
    options.samples = samples;
    // threads stays 0: LibTorch's thread count is process-wide and a training may be running.
    const Expected<AblationTable> result =
        ablateRun(dir, options, [&post, &cancel](int done, int total) {
          post([done, total](AblationJob* job) { Q_EMIT job->progress(done, total); });
          return !cancel->load();
        });
    const AblationTable table = result.ok() ? *result : AblationTable{};
    const QString error = result.ok() ? QString() : QString::fromStdString(result.error());
    post([ok = result.ok(), table, error](AblationJob* job) {
      job->running_ = false;
      Q_EMIT job->finished(ok, table, error);
    });
  });
  return true;
}

}  // namespace ascope
