#pragma once
// Who this process is in a data-parallel training job: its rank among the job's processes and
// where rank 0 waits for the others. Plain C++: the CLI reads it from the environment that
// torchrun sets (or that `train --nproc N` sets for the ranks it starts) and hands it to the
// Trainer.
#include <optional>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct JobRank {
  int rank = 0;        ///< 0 .. world_size − 1; rank 0 writes the run folder
  int world_size = 1;  ///< processes in the job
  int local_rank = 0;  ///< rank among the job's processes on this machine (picks a GPU)
  /// Where rank 0 serves the job's rendezvous (a c10d TCPStore) and the others reach it.
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  /// The longest any rank waits for another: to meet at the start, in a collective (rank 0
  /// evaluates and writes checkpoints while the others wait at the next step), at the end.
  double timeout_s = 1800;

  bool leads() const { return rank == 0; }
};

/// The variables torchrun sets: RANK, WORLD_SIZE, LOCAL_RANK (default: RANK), MASTER_ADDR
/// (default 127.0.0.1), MASTER_PORT (default 29500). nullopt when neither RANK nor WORLD_SIZE is
/// set; an error naming the variable and its value when one is missing or malformed.
Expected<std::optional<JobRank>> jobRankFromEnvironment();

/// MASTER_PORT when set (an error naming its value when malformed), else `fallback`.
Expected<int> masterPortFromEnvironment(int fallback);

/// "rank 1 of 2 (rendezvous at 127.0.0.1:29500)"
std::string describeJobRank(const JobRank& job);

}  // namespace ascope
