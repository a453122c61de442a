#pragma once
// Counts the operations that make the host wait for the device, by the HostWaitRegion they run in
// on any thread: reading a number out of a tensor (`item()`), the operators whose result size
// depends on the data (`nonzero`, `masked_select`, `unique`, …) and the engine's own reads
// (readToHost). On a GPU each is a stall of the whole queue; on a CPU they cost nothing, which is
// how one crept into every training step unseen. Tests hold a counter around a run to keep them
// out of the training step.
//
// ATen's RecordFunction observes every dispatched operator, on a CPU as on a GPU, so a run on this
// machine counts what a GPU would wait for. Operators outside every region are not counted.
#include <cstdint>
#include <map>
#include <string>

namespace ascope {

class HostWaitCounter {
 public:
  /// Starts counting, process-wide; one counter at a time.
  HostWaitCounter();
  ~HostWaitCounter();
  HostWaitCounter(const HostWaitCounter&) = delete;
  HostWaitCounter& operator=(const HostWaitCounter&) = delete;

  /// Waits counted in `region` since construction.
  int64_t count(const std::string& region) const;
  /// Those of one kind: `what` as text() names it ("aten::nonzero in aten::index").
  int64_t count(const std::string& region, const std::string& what) const;
  /// The waits of `region` by operator ("aten::_local_scalar_dense × 3, readToHost × 1"), "" when
  /// none: for messages.
  std::string text(const std::string& region) const;

  /// A read the engine makes itself (readToHost): counted in the calling thread's region when a
  /// counter counts.
  static void noteRead(const char* what);

 private:
  uint64_t handle_ = 0;  ///< at::CallbackHandle
};

}  // namespace ascope
