#include "engine/device/host_wait_region.h"

namespace ascope {
namespace {

thread_local const char* innermost = nullptr;

}  // namespace

HostWaitRegion::HostWaitRegion(const char* name) : outer_(innermost) {
  innermost = name;
}

HostWaitRegion::~HostWaitRegion() {
  innermost = outer_;
}

const char* HostWaitRegion::current() {
  return innermost;
}

}  // namespace ascope
