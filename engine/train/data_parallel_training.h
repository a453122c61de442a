#pragma once
// What a TrainingSession does differently as one rank of a data-parallel job (engine/distributed):
//   - at the start: meet the other ranks; ranks other than 0 take rank 0's settings, and every
//     rank rank 0's model, optimizer state and progress (a new run or a resumed one, whatever the
//     number of ranks that trained it before);
//   - each step: train this rank's shard of the batch (engine/nn/batch_shard.h), then all-reduce
//     the gradients and the step's figures, so that the step is the one a single process makes
//     with the whole batch, and every rank knows whether one of them was asked to stop;
//   - rank 0 alone writes the run folder; the others keep nothing on disk.
// The session keeps the loop; this class keeps everything that crosses ranks.
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/distributed/gradient_buckets.h"
#include "engine/distributed/job_group.h"
#include "engine/distributed/job_rank.h"
#include "engine/tasks/task.h"
#include "engine/train/checkpoint.h"
#include "engine/train/host_step_figures.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

class DataParallelTraining {
 public:
  /// Meets the other ranks. On ranks other than 0, `config` becomes rank 0's (their own threads
  /// kept): one job trains one run, whatever each rank's command line said. Every rank stops on a
  /// non-finite loss instead of pausing (a paused rank would hold up the others).
  static Expected<std::unique_ptr<DataParallelTraining>> join(const JobRank& job,
                                                              const torch::Device& device,
                                                              TrainingConfig& config);

  bool leads() const { return group_->job().leads(); }
  const JobRank& job() const { return group_->job(); }

  /// Rank 0's model weights, optimizer state, progress and learning-rate override, and the run
  /// folder it writes, to every rank (throws JobFault).
  void shareState(torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                  TrainingProgress& progress, std::optional<double>& lr_override,
                  std::string& run_dir);

  /// This rank's shard of the batch `indices` through the task, each random draw the one its
  /// samples get in the whole batch. An empty shard (a batch smaller than the job) gives a zero
  /// loss that counts nothing.
  BatchOutcome trainShard(Task& task, const std::vector<int64_t>& indices);

  /// Before a step: whether this rank was asked to stop (a signal, a command) or its time limit
  /// has passed. Every rank learns the others' votes with the step's all-reduce.
  void vote(bool stop, bool time_up);
  /// Backward of this rank's loss, then one all-reduce of the gradients with the step's figures
  /// (this rank's, read) and votes: afterwards the gradients and `figures` are the whole batch's,
  /// as one process would have them (throws JobFault).
  void backwardAndReduce(const BatchOutcome& out, HostStepFigures& figures);
  /// Some rank voted to stop, or its time was up, in the last step.
  bool stopAgreed() const { return stop_agreed_; }
  bool timeUpAgreed() const { return time_up_agreed_; }

  /// Rank 0: the step of the checkpoint it just wrote; the others learn it with the next step.
  void noteCheckpoint(int64_t step) { last_checkpoint_step_ = step; }
  /// The newest checkpoint rank 0 has reported (-1: none yet) and the folder it is in.
  int64_t lastCheckpointStep() const { return last_checkpoint_step_; }
  const std::string& runDir() const { return run_dir_; }

  /// One line for the log at the end: ranks, backend, gradient volume, the all-reduce's share.
  std::string summary() const;
  /// The wall time of a whole step (forward to optimizer), for the all-reduce's share.
  void countStep(double seconds) { step_seconds_ += seconds; }

 private:
  explicit DataParallelTraining(std::unique_ptr<JobGroup> group) : group_(std::move(group)) {}

  std::unique_ptr<JobGroup> group_;
  std::unique_ptr<GradientBuckets> buckets_;  ///< built at the first step
  double stop_vote_ = 0, time_up_vote_ = 0;
  bool stop_agreed_ = false, time_up_agreed_ = false;
  int64_t last_checkpoint_step_ = -1;
  std::string run_dir_;
  double reduce_seconds_ = 0, step_seconds_ = 0;
  int64_t steps_ = 0;
};

}  // namespace ascope
