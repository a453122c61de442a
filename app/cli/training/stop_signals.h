#pragma once
// SIGINT and SIGTERM during `train`: the first asks the run to stop after its current step and
// write its checkpoint (the drain loop polls received() and calls Trainer::stop()); a second one
// ends the process at once. The handler only stores the signal number: nothing else is safe in it.
namespace ascope::cli {

/// Exit code of `train` stopped by a signal with its checkpoint written: the run can be resumed.
inline constexpr int kExitStoppedBySignal = 3;

/// Installs the handlers for its lifetime and restores the previous ones after. One at a time.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The first signal received while installed (SIGINT or SIGTERM), 0 for none.
  int received() const;
};

/// "SIGINT", "SIGTERM", else "a signal".
const char* signalName(int signal);

}  // namespace ascope::cli
