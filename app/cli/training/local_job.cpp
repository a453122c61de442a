#include "app/cli/training/local_job.h"

#include <algorithm>
#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/training/stop_signals.h"
#include "engine/core/cpu_runtime.h"
#include "engine/distributed/job_rank.h"
#include "engine/distributed/rank_launcher.h"

namespace ascope::cli {

int trainOnLocalRanks(const std::vector<std::string>& args, int ranks, bool threads_given) {
  RankLaunch launch;
  // The same binary the user started, whatever its name or the working directory.
  launch.program = "/proc/self/exe";
  launch.args = args;
  launch.ranks = ranks;
  launch.stopped_exit_code = kExitStoppedBySignal;
  if (!threads_given) launch.threads_per_rank = std::max(1, tuneCpuRuntime().cpus / ranks);
  // MASTER_PORT, when set, is the port the user chose (a taken one is refused by rank 0, named);
  // else a free one.
  const Expected<int> port = masterPortFromEnvironment(0);
  if (!port.ok()) return usageError(port.error(), "train");
  launch.master_port = *port;
  const StopSignals signals;
  return launchLocalRanks(
      launch, [&signals] { return signals.received(); },
      [](const std::string& line) {
        std::fprintf(stderr, "attentionscope-cli: %s\n", line.c_str());
      });
}

}  // namespace ascope::cli
