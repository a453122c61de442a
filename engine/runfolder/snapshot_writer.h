#pragma once
// Writes the timeline's probe sets on a thread of its own: encoding a set and writing it safely
// (a temporary file, fsync, rename) takes milliseconds, as long as the probe that made it, and a
// dense timeline would otherwise spend that on the training thread at every stored step. The
// sets are written in order; decisions about which steps are due are taken here, on the caller's
// thread, from the steps already handed over, so they do not depend on how far the writer is.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/runfolder/snapshot_store.h"

namespace ascope {

class SnapshotWriter {
 public:
  using Warn = std::function<void(const std::string& message)>;

  /// Takes over `store`; a set that cannot be written is said through `warn` (from the writer's
  /// thread) and the next one is tried.
  SnapshotWriter(SnapshotStore store, Warn warn);
  /// Writes what is still queued, then ends the thread.
  ~SnapshotWriter();
  SnapshotWriter(const SnapshotWriter&) = delete;
  SnapshotWriter& operator=(const SnapshotWriter&) = delete;

  /// Whether a probe at `step` is stored (`last`: the run's final probe always is).
  bool due(int64_t step, bool last) const;
  /// Queues `probes` for writing (the caller has checked `due`).
  void write(std::shared_ptr<const ProbeSet> probes);
  /// Returns once every set queued so far is written (or failed).
  void flush();

  /// Sets stored in the folder, once flushed.
  std::size_t count() const;
  /// Seconds the writer's thread has spent writing.
  double busySeconds() const;

 private:
  void run();

  SnapshotStore store_;
  Warn warn_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, written_;
  std::deque<std::shared_ptr<const ProbeSet>> queue_;
  int64_t last_queued_step_ = -1;
  // The store's figures as of its last write, read by the other threads: the store itself is
  // the writer thread's alone while it writes.
  int64_t spacing_ = 1;
  std::size_t count_ = 0;
  bool writing_ = false;
  bool stopping_ = false;
  double busy_s_ = 0;
  std::thread thread_;  // last: starts once everything above is ready
};

}  // namespace ascope
