#include "app/cli/interrupt_cancels.h"

#include <csignal>

namespace ascope::cli {
namespace {

std::atomic<bool> g_cancel{false};

void requestCancel(int) {
  g_cancel.store(true);
}

}  // namespace

InterruptCancels::InterruptCancels() {
  g_cancel.store(false);
  previous_ = std::signal(SIGINT, &requestCancel);
}

InterruptCancels::~InterruptCancels() {
  std::signal(SIGINT, previous_);
}

const std::atomic<bool>& InterruptCancels::flag() {
  return g_cancel;
}

}  // namespace ascope::cli
