#pragma once
// CPU time of the calling thread: what the GUI thread itself spent on a turn, apart from the
// wall-clock time it waited for a core (two cores shared with a training are often both busy).
#include <QtGlobal>

#include <time.h>

namespace ascope {

/// CPU time of the calling thread in nanoseconds.
inline qint64 threadCpuNs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<qint64>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

}  // namespace ascope
