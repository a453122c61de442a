#pragma once
// `train --nproc N` without torchrun: the CLI starts itself N times as the ranks of a
// data-parallel job on this machine (engine/distributed/rank_launcher.h) and reports how they
// ended.
#include <string>
#include <vector>

namespace ascope::cli {

/// Starts the ranks with `args` (the whole command line after the program name) and waits for
/// them; MASTER_PORT from the environment when set, else a free port. When `threads_given` is
/// false, each rank gets an equal share of this process's CPUs. Returns the job's exit code.
int trainOnLocalRanks(const std::vector<std::string>& args, int ranks, bool threads_given);

}  // namespace ascope::cli
