#include "app/gui/window/main/stall_monitor.h"

#include <QAbstractEventDispatcher>
#include <QThread>

#include <algorithm>

#include "app/gui/bridge/thread_cpu_clock.h"

namespace ascope {

StallMonitor::StallMonitor(QObject* parent) : QObject(parent) {}

void StallMonitor::start() {
  QAbstractEventDispatcher* dispatcher =
      QAbstractEventDispatcher::instance(QThread::currentThread());
  if (dispatcher == nullptr || running_) return;
  longest_ms_ = longest_busy_ms_ = 0;
  turns_ = 0;
  clock_.start();
  start_cpu_ns_ = threadCpuNs();
  // start() itself runs inside a turn: count from here.
  in_turn_ = true;
  turn_start_ns_ = 0;
  turn_start_cpu_ns_ = start_cpu_ns_;
  // Both signals are emitted on this thread by its own dispatcher: direct connections.
  awake_connection_ =
      connect(dispatcher, &QAbstractEventDispatcher::awake, this, &StallMonitor::awake);
  block_connection_ = connect(dispatcher, &QAbstractEventDispatcher::aboutToBlock, this,
                              &StallMonitor::aboutToBlock);
  running_ = true;
}

void StallMonitor::stop() {
  if (!running_) return;
  disconnect(awake_connection_);
  disconnect(block_connection_);
  stop_ns_ = clock_.nsecsElapsed();
  stop_cpu_ns_ = threadCpuNs();
  running_ = false;
}

double StallMonitor::busyShare() const {
  const qint64 wall = running_ ? clock_.nsecsElapsed() : stop_ns_;
  const qint64 cpu = running_ ? threadCpuNs() : stop_cpu_ns_;
  return wall > 0 ? static_cast<double>(cpu - start_cpu_ns_) / wall : 0.0;
}

void StallMonitor::awake() {
  // The dispatcher may say "awake" more than once per turn; the turn began at the first.
  if (in_turn_) return;
  in_turn_ = true;
  turn_start_ns_ = clock_.nsecsElapsed();
  turn_start_cpu_ns_ = threadCpuNs();
}

void StallMonitor::aboutToBlock() {
  if (!in_turn_) return;
  in_turn_ = false;
  ++turns_;
  longest_ms_ = std::max(longest_ms_, (clock_.nsecsElapsed() - turn_start_ns_) / 1e6);
  longest_busy_ms_ = std::max(longest_busy_ms_, (threadCpuNs() - turn_start_cpu_ns_) / 1e6);
}

}  // namespace ascope
