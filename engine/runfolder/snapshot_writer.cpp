#include "engine/runfolder/snapshot_writer.h"

#include <chrono>
#include <utility>

namespace ascope {

SnapshotWriter::SnapshotWriter(SnapshotStore store, Warn warn)
    : store_(std::move(store)),
      warn_(std::move(warn)),
      last_queued_step_(store_.lastStep()),
      spacing_(store_.spacing()),
      count_(store_.count()),
      thread_([this] { run(); }) {}

SnapshotWriter::~SnapshotWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

bool SnapshotWriter::due(int64_t step, bool last) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // The store's spacing may have doubled (thinning over budget) while sets were written.
  return last || last_queued_step_ < 0 || (step % spacing_ == 0 && step != last_queued_step_);
}

void SnapshotWriter::write(std::shared_ptr<const ProbeSet> probes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    last_queued_step_ = probes->step;
    queue_.push_back(std::move(probes));
  }
  wake_.notify_one();
}

void SnapshotWriter::flush() {
  std::unique_lock<std::mutex> lock(mutex_);
  written_.wait(lock, [this] { return queue_.empty() && !writing_; });
}

std::size_t SnapshotWriter::count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return count_;
}

double SnapshotWriter::busySeconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return busy_s_;
}

void SnapshotWriter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything written
    const std::shared_ptr<const ProbeSet> probes = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    lock.unlock();
    const auto start = std::chrono::steady_clock::now();
    const Status stored = store_.store(*probes);
    const int64_t spacing = store_.spacing();
    const std::size_t count = store_.count();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!stored.ok() && warn_) warn_(stored.error());
    lock.lock();
    busy_s_ += seconds;
    spacing_ = spacing;
    count_ = count;
    writing_ = false;
    if (queue_.empty()) written_.notify_all();
  }
}

}  // namespace ascope
