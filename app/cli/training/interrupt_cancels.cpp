#include "app/cli/training/interrupt_cancels.h"

#include <unistd.h>

#include <csignal>

namespace ascope::cli {
namespace {

std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set in a signal handler");

struct sigaction saved_int {};
struct sigaction saved_term {};

extern "C" void requestCancel(int) {
  if (!g_cancel.exchange(true)) return;
  // Only async-signal-safe calls here: write() and _exit().
  static const char message[] =
      "\nattentionscope-cli: second signal: exiting now (run the same command again to "
      "resume)\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(1);
}

}  // namespace

InterruptCancels::InterruptCancels() {
  g_cancel.store(false);
  struct sigaction action {};
  action.sa_handler = requestCancel;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write() to the part file goes on; the flag ends the transfer
  sigaction(SIGINT, &action, &saved_int);
  sigaction(SIGTERM, &action, &saved_term);
}

InterruptCancels::~InterruptCancels() {
  sigaction(SIGINT, &saved_int, nullptr);
  sigaction(SIGTERM, &saved_term, nullptr);
}

const std::atomic<bool>& InterruptCancels::flag() {
  return g_cancel;
}

}  // namespace ascope::cli
