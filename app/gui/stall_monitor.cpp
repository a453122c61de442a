#include "app/gui/stall_monitor.h"

#include <time.h>

#include <algorithm>

namespace ascope {
namespace {

/// CPU time of the calling thread in nanoseconds.
qint64 threadCpuNs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<qint64>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

}  // namespace

StallMonitor::StallMonitor(QObject* parent) : QObject(parent) {
  timer_.setInterval(kTickMs);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &StallMonitor::tick);
}

void StallMonitor::start() {
  longest_ms_ = longest_busy_ms_ = 0;
  ticks_ = 0;
  clock_.start();
  last_ns_ = 0;
  last_cpu_ns_ = start_cpu_ns_ = threadCpuNs();
  timer_.start();
}

void StallMonitor::stop() {
  timer_.stop();
}

double StallMonitor::busyShare() const {
  return last_ns_ > 0 ? static_cast<double>(last_cpu_ns_ - start_cpu_ns_) / last_ns_ : 0.0;
}

void StallMonitor::tick() {
  const qint64 now = clock_.nsecsElapsed();
  const qint64 cpu = threadCpuNs();
  longest_ms_ = std::max(longest_ms_, (now - last_ns_) / 1e6);
  longest_busy_ms_ = std::max(longest_busy_ms_, (cpu - last_cpu_ns_) / 1e6);
  last_ns_ = now;
  last_cpu_ns_ = cpu;
  ++ticks_;
}

}  // namespace ascope
