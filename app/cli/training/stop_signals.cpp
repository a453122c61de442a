#include "app/cli/training/stop_signals.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace ascope::cli {
namespace {

std::atomic<int> first_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "used in a signal handler");

struct sigaction previous_int {};
struct sigaction previous_term {};
struct sigaction previous_hup {};

extern "C" void onStopSignal(int signal) {
  int expected = 0;
  if (first_signal.compare_exchange_strong(expected, signal)) return;
  // SIGHUP is the death of the `--nproc` launcher (a rank's PR_SET_PDEATHSIG) or of the terminal:
  // nobody asking for haste. After a Ctrl+C the launcher passed on, it must not cost the
  // checkpoint that signal asked for.
  if (signal == SIGHUP) return;
  // Whoever sends a second one does not want to wait for the checkpoint. Only async-signal-safe
  // calls here: write() and _exit().
  static const char message[] =
      "\nattentionscope-cli: second signal: exiting now, without waiting for the checkpoint "
      "(the previous one is kept)\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(1);
}

}  // namespace

StopSignals::StopSignals() {
  first_signal = 0;
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  // Restarted system calls: the trainer thread may be inside a write() when a signal lands there.
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &previous_int);
  sigaction(SIGTERM, &action, &previous_term);
  sigaction(SIGHUP, &action, &previous_hup);
}

StopSignals::~StopSignals() {
  // What was printed reaches its file before a signal can take the default action again (stdout
  // to a file is block buffered; a SIGHUP from a killed launcher would drop the summary).
  std::fflush(stdout);
  std::fflush(stderr);
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
  sigaction(SIGHUP, &previous_hup, nullptr);
}

int StopSignals::received() const {
  return first_signal.load();
}

const char* signalName(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP (the launcher or the terminal is gone)";
    default:
      return "a signal";
  }
}

}  // namespace ascope::cli
