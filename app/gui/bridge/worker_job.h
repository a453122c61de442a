#pragma once
// What the GUI's background jobs (fetching a dataset or a model, ablating heads) share: one run at
// a time on a worker thread, a cancel flag the work checks as it goes, and calls from the worker
// delivered as queued calls on the thread that owns the job, so the GUI never waits. Destroying a
// running job cancels it and joins the worker.
#include <QObject>
#include <QPointer>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

namespace ascope {

class WorkerJob : public QObject {
  Q_OBJECT

 public:
  ~WorkerJob() override;

  /// Asks the running work to stop; the subclass's finished() follows. What a cancelled download
  /// left stays, and the next start resumes it.
  void cancel();
  bool isRunning() const { return running_; }

  /// Hands calls from the worker thread to the job's thread; they are dropped once the job is
  /// gone (its destructor cancels and joins first).
  class Post {
   public:
    explicit Post(QPointer<WorkerJob> job) : job_(std::move(job)) {}
    void operator()(std::function<void(WorkerJob&)> call) const;
    /// The last call: marks the job idle, then runs `emit_result` (which emits finished()).
    void finish(std::function<void(WorkerJob&)> emit_result) const;

   private:
    QPointer<WorkerJob> job_;
  };

 protected:
  explicit WorkerJob(QObject* parent = nullptr);

  /// Runs `work` on a new worker thread with the cancel flag; false (and nothing started) while
  /// one runs. `work` must end with post.finish() and may touch the job only through `post`.
  bool launch(std::function<void(const Post& post, const std::atomic<bool>* cancel)> work);

 private:
  void join();

  std::shared_ptr<std::atomic<bool>> cancel_;
  std::thread worker_;
  bool running_ = false;
};

}  // namespace ascope
