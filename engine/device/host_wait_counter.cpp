#include "engine/device/host_wait_counter.h"

#include <ATen/record_function.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "engine/device/host_wait_region.h"

namespace ascope {
namespace {

/// Waits by region, then by operator; the callback runs on any thread.
using Counts = std::map<std::string, std::map<std::string, int64_t>>;
std::mutex counts_mutex;
Counts* counts = nullptr;  // guarded by counts_mutex; null when no counter counts
std::atomic<bool> counting{false};

/// Operators that copy a device's number to the host or size their result by the data: the host
/// waits for every kernel queued before them.
bool waitsForTheDevice(const char* name) {
  static const char* const kWaiting[] = {
      "aten::_local_scalar_dense",  // item(), and every conversion of a tensor to a number
      "aten::nonzero",
      "aten::masked_select",
      "aten::_unique",
      "aten::_unique2",
      "aten::unique_dim",
      "aten::unique_consecutive",
      "aten::is_nonzero",
      "aten::equal",
  };
  for (const char* waiting : kWaiting) {
    if (std::strcmp(name, waiting) == 0) return true;
  }
  return false;
}

/// The operators running on this thread, outermost first: a wait is named with the operator the
/// code called ("aten::nonzero in aten::index"), which is what to look for in the source.
thread_local std::vector<const char*> running;

void note(const char* what) {
  const char* region = HostWaitRegion::current();
  if (region == nullptr || !counting.load(std::memory_order_relaxed)) return;
  std::string key = what;
  if (!running.empty() && std::strcmp(running.front(), what) != 0) {
    key += std::string(" in ") + running.front();
  }
  std::lock_guard lock(counts_mutex);
  if (counts != nullptr) ++(*counts)[region][key];
}

std::unique_ptr<at::ObserverContext> onOperatorStart(const at::RecordFunction& fn) {
  if (waitsForTheDevice(fn.name())) note(fn.name());
  running.push_back(fn.name());
  return nullptr;
}

void onOperatorEnd(const at::RecordFunction& /*fn*/, at::ObserverContext* /*context*/) {
  if (!running.empty()) running.pop_back();
}

}  // namespace

HostWaitCounter::HostWaitCounter() {
  {
    std::lock_guard lock(counts_mutex);
    if (counts != nullptr) throw std::logic_error("HostWaitCounter: one at a time");
    counts = new Counts();
  }
  counting = true;
  handle_ = at::addGlobalCallback(at::RecordFunctionCallback(onOperatorStart, onOperatorEnd)
                                      .scopes({at::RecordScope::FUNCTION}));
}

HostWaitCounter::~HostWaitCounter() {
  at::removeCallback(handle_);
  counting = false;
  std::lock_guard lock(counts_mutex);
  delete counts;
  counts = nullptr;
}

int64_t HostWaitCounter::count(const std::string& region) const {
  std::lock_guard lock(counts_mutex);
  int64_t total = 0;
  if (auto found = counts->find(region); found != counts->end()) {
    for (const auto& [name, n] : found->second) total += n;
  }
  return total;
}

int64_t HostWaitCounter::count(const std::string& region, const std::string& what) const {
  std::lock_guard lock(counts_mutex);
  const auto found = counts->find(region);
  if (found == counts->end()) return 0;
  const auto kind = found->second.find(what);
  return kind == found->second.end() ? 0 : kind->second;
}

std::string HostWaitCounter::text(const std::string& region) const {
  std::lock_guard lock(counts_mutex);
  std::string out;
  if (auto found = counts->find(region); found != counts->end()) {
    for (const auto& [name, n] : found->second) {
      out += (out.empty() ? "" : ", ") + name + " × " + std::to_string(n);
    }
  }
  return out;
}

void HostWaitCounter::noteRead(const char* what) {
  note(what);
}

}  // namespace ascope
