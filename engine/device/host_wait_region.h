#pragma once
// Names the part of the engine the calling thread is in ("training step", "validation"), for a
// HostWaitCounter: it counts the host's waits for the device by region. Costs one thread-local
// store whether or not anything counts.
namespace ascope {

class HostWaitRegion {
 public:
  /// `name` must outlive the region (a string literal).
  explicit HostWaitRegion(const char* name);
  ~HostWaitRegion();
  HostWaitRegion(const HostWaitRegion&) = delete;
  HostWaitRegion& operator=(const HostWaitRegion&) = delete;

  /// The innermost region of the calling thread; null outside every region.
  static const char* current();

 private:
  const char* outer_;
};

}  // namespace ascope
