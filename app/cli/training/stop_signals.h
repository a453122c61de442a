#pragma once
// SIGINT and SIGTERM during `train`: the first asks the run to stop after its current step and
// write its checkpoint (the drain loop polls received() and calls Trainer::stop()); a second one
// ends the process at once. SIGHUP (the `--nproc` launcher's death, which every rank is sent, or
// the terminal's) asks the same stop but never counts as a second signal: a launcher killed after
// passing a Ctrl+C on made the ranks skip their checkpoint. The handler only stores the signal
// number: nothing else is safe in it.
namespace ascope::cli {

/// Exit code of `train` stopped by a signal with its checkpoint written: the run can be resumed.
inline constexpr int kExitStoppedBySignal = 3;

/// Installs the handlers for its lifetime; flushes stdout and stderr, then restores the previous
/// ones. One at a time.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The first signal received while installed (SIGINT, SIGTERM or SIGHUP), 0 for none.
  int received() const;
};

/// "SIGINT", "SIGTERM", "SIGHUP (…)", else "a signal".
const char* signalName(int signal);

}  // namespace ascope::cli
