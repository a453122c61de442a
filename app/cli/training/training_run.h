#pragma once
#include <optional>

#include "engine/distributed/job_rank.h"
#include "engine/vocabulary/training_config.h"

namespace ascope::cli {

/// Trains `config` on the trainer's thread while printing its progress (rewritten in place on a
/// terminal, a line every 10 s otherwise), its log and a summary. SIGINT/SIGTERM stop the run after
/// its current step with its checkpoint written; a second one exits at once (exit code 1).
/// Returns the exit code: 2 when the run could not start, 1 when it failed,
/// kExitStoppedBySignal (3) when a signal stopped it (resumable with --resume), else 0.
/// With `job`, as one rank of a data-parallel job: rank 0 reports as a lone run does; the other
/// ranks print only their warnings and errors, each line beginning with "rank N:".
int trainAndReport(const TrainingConfig& config, const std::optional<JobRank>& job = {});

}  // namespace ascope::cli
