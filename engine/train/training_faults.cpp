#include "engine/train/training_faults.h"

#include <fmt/format.h>

#include <algorithm>
#include <new>

namespace ascope {

bool isOutOfMemoryError(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return true;
  const std::string what = e.what();
  for (const char* sign : {"out of memory", "can't allocate memory", "DefaultCPUAllocator",
                           "std::bad_alloc", "Cannot allocate memory"}) {
    if (what.find(sign) != std::string::npos) return true;
  }
  return false;
}

std::string outOfMemoryMessage(const char* phase, std::int64_t step, std::int64_t batch_size) {
  return fmt::format(
      "out of memory while running {} at step {} with batch_size {}: training paused. Try a "
      "smaller batch_size (e.g. {}) or a smaller model.",
      phase, step, batch_size, std::max<std::int64_t>(1, batch_size / 2));
}

std::string nonFiniteLossMessage(std::int64_t step, double lr) {
  return fmt::format(
      "loss is not finite at step {}: the batch was skipped and training paused; the last good "
      "checkpoint is kept. Try a lower learning rate (now {:.3g}) or gradient clipping.",
      step, lr);
}

std::string checkpointFailureMessage(const std::string& error, std::int64_t step,
                                     const char* name) {
  // The GUI pauses (free some space, press Resume: the next checkpoint is tried again); the CLI
  // stops with exit code 1. The previous file is untouched either way.
  return fmt::format(
      "{} at step {}: training paused; the previous {}.pt (if any) is kept. Free some space, then "
      "resume.",
      error, step, name);
}

std::string jobFaultMessage(const std::string& fault, const std::string& kept,
                            const std::string& run_dir) {
  return fault + (kept.empty()
                      ? "; no checkpoint was written yet"
                      : "; " + kept + ": continue with attentionscope-cli train --resume " +
                            run_dir + " (with any number of ranks)");
}

}  // namespace ascope
