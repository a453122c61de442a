#include "app/gui/bridge/worker_job.h"

#include <QMetaObject>

namespace ascope {

WorkerJob::WorkerJob(QObject* parent) : QObject(parent) {}

WorkerJob::~WorkerJob() {
  cancel();
  join();
}

void WorkerJob::join() {
  if (worker_.joinable()) worker_.join();
}

void WorkerJob::cancel() {
  if (cancel_) cancel_->store(true);
}

bool WorkerJob::launch(
    std::function<void(const Post& post, const std::atomic<bool>* cancel)> work) {
  if (running_) return false;
  join();  // the previous worker has posted its result already; reap it
  running_ = true;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  const std::shared_ptr<std::atomic<bool>> cancel = cancel_;
  const Post post{QPointer<WorkerJob>(this)};
  worker_ = std::thread([post, cancel, work = std::move(work)] { work(post, cancel.get()); });
  return true;
}

void WorkerJob::Post::operator()(std::function<void(WorkerJob&)> call) const {
  QMetaObject::invokeMethod(
      job_.data(),
      [job = job_, call = std::move(call)] {
        if (job) call(*job);
      },
      Qt::QueuedConnection);
}

void WorkerJob::Post::finish(std::function<void(WorkerJob&)> emit_result) const {
  (*this)([emit_result = std::move(emit_result)](WorkerJob& job) {
    job.running_ = false;
    emit_result(job);
  });
}

}  // namespace ascope
