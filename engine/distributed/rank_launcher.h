#pragma once
// `attentionscope-cli train --nproc N`: starts N ranks of a data-parallel job on this machine, as
// torchrun --standalone would: the same program and arguments, each with the environment torchrun
// sets (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR=127.0.0.1, MASTER_PORT). Plain C++ (fork/exec):
// the launcher itself never touches a tensor.
//
// The ranks run in a process group of their own, so a Ctrl+C on the terminal reaches the
// launcher alone, which passes it on once to every rank (they then stop after the same step; rank
// 0 writes the checkpoint). A rank whose launcher dies gets SIGTERM. When a rank fails, the others
// notice at their next collective and end on their own; one that has not ended after a grace
// period is terminated (SIGTERM, then SIGKILL), so the job never outlives its failure for long.
#include <functional>
#include <string>
#include <vector>

namespace ascope {

struct RankLaunch {
  std::string program;            ///< the executable (the CLI passes /proc/self/exe)
  std::vector<std::string> args;  ///< after the program name, the same for every rank
  int ranks = 2;
  int master_port = 0;  ///< 0: a free port on 127.0.0.1
  /// OMP_NUM_THREADS of each rank when the environment does not set it (0: leave it unset), so
  /// that N ranks on C cores do not start N × C threads.
  int threads_per_rank = 0;
  /// How long the other ranks may take to end after one failed, before they get SIGTERM (rank 0
  /// then still writes its checkpoint), and SIGKILL kill_after_s later.
  double grace_s = 30;
  double kill_after_s = 60;
  /// The exit code of a rank stopped by a passed-on signal (not a failure).
  int stopped_exit_code = 3;
};

/// Starts the ranks and waits for them. `signal_received` is polled (a Ctrl+C or SIGTERM the
/// caller caught: passed on to the ranks once each time it changes); `say` gets one line per event
/// for the person (ranks started, a rank that failed and how, ranks terminated). Returns the job's
/// exit code: rank 0's, but 1 when rank 0 ended with 0 or by a signal while another rank failed.
int launchLocalRanks(const RankLaunch& launch, const std::function<int()>& signal_received,
                     const std::function<void(const std::string&)>& say);

/// A TCP port on 127.0.0.1 that is free now (the kernel's choice); 0 when none could be had.
int freeLoopbackPort();

}  // namespace ascope
