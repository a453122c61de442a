#include "engine/train/data_parallel_training.h"

#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <cstring>

#include "engine/distributed/job_fault.h"
#include "engine/nn/batch_shard.h"

namespace ascope {
namespace {

using Clock = std::chrono::steady_clock;

// What the all-reduce of a step sums besides the gradients (GradientBuckets: index 0 is the
// weight).
enum StepSum : std::size_t {
  kCounted,
  kLossTimesCounted,
  kCorrect,
  kSamples,
  kStopVotes,
  kTimeUpVotes,
  kCheckpointStep,
  kStepSums
};

}  // namespace

Expected<std::unique_ptr<DataParallelTraining>> DataParallelTraining::join(
    const JobRank& job, const torch::Device& device, TrainingConfig& config) {
  Expected<std::unique_ptr<JobGroup>> group = JobGroup::join(job, device);
  if (!group.ok()) return Error{group.error()};
  std::unique_ptr<DataParallelTraining> parallel(new DataParallelTraining(std::move(*group)));
  config.stop_on_nonfinite = true;
  // The settings config.json leaves out travel too: a rank that missed interrupt_at_step would
  // wait for a step rank 0 never makes.
  nlohmann::json settings;
  settings["config"] = config;
  settings["interrupt_at_step"] = config.interrupt_at_step;
  settings["inject_nan_at_step"] = config.inject_nan_at_step;
  try {
    const std::string shared = parallel->group_->shareFromLeader(
        "config", settings.dump(), "the exchange of the run's settings");
    if (!job.leads()) {
      const nlohmann::json leader = nlohmann::json::parse(shared);
      const int threads = config.threads;
      config = leader.at("config").get<TrainingConfig>();
      config.threads = threads;
      config.interrupt_at_step = leader.at("interrupt_at_step").get<int64_t>();
      config.inject_nan_at_step = leader.at("inject_nan_at_step").get<int64_t>();
      config.stop_on_nonfinite = true;
      config.resume = false;  // rank 0 alone reads the run folder; shareState brings its state
    }
  } catch (const nlohmann::json::exception& e) {
    return Error{describeJobRank(job) + ": rank 0's settings are unreadable (" + e.what() + ")"};
  } catch (const std::exception& e) {
    return Error{e.what()};
  }
  return parallel;
}

void DataParallelTraining::shareState(torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                                      TrainingProgress& progress,
                                      std::optional<double>& lr_override, std::string& run_dir) {
  // A checkpoint's own archive: model, optimizer state (Adam's moments and step counts) and
  // progress arrive exactly as a resume from last.pt would load them.
  nlohmann::json header;
  header["run_dir"] = run_dir;
  header["lr_override"] = lr_override ? nlohmann::json(*lr_override) : nlohmann::json();
  const std::string shared_header =
      group_->shareFromLeader("state", header.dump(), "the exchange of rank 0's state");
  std::string bytes = leads() ? checkpointBytes(model, &optimizer, progress) : std::string();
  at::Tensor size = at::tensor({static_cast<int64_t>(bytes.size())}, at::kLong);
  group_->broadcastFromLeader(size, "the exchange of rank 0's state");
  at::Tensor payload = at::zeros({size.item<int64_t>()}, at::kByte);
  if (leads()) std::memcpy(payload.data_ptr(), bytes.data(), bytes.size());
  group_->broadcastFromLeader(payload, "the exchange of rank 0's state");
  if (!leads()) {
    bytes.assign(static_cast<const char*>(payload.data_ptr()), payload.numel());
    Expected<TrainingProgress> loaded =
        loadCheckpointBytes(bytes, "rank 0's state", model, &optimizer);
    if (!loaded.ok()) throw JobFault(describeJobRank(job()) + ": " + loaded.error());
    progress = *loaded;
    const nlohmann::json leader = nlohmann::json::parse(shared_header);
    run_dir = leader.at("run_dir").get<std::string>();
    lr_override.reset();
    if (!leader.at("lr_override").is_null()) lr_override = leader.at("lr_override").get<double>();
  }
  run_dir_ = run_dir;
  std::vector<at::Tensor> trained;
  for (const at::Tensor& p : model.parameters()) {
    if (p.requires_grad()) trained.push_back(p);
  }
  buckets_ = std::make_unique<GradientBuckets>(std::move(trained));
}

BatchOutcome DataParallelTraining::trainShard(Task& task, const std::vector<int64_t>& indices) {
  const BatchShard shard =
      shardOfBatch(static_cast<int64_t>(indices.size()), job().rank, job().world_size);
  if (shard.size == 0) {
    BatchOutcome none;
    none.loss = at::zeros({});
    return none;
  }
  const std::vector<int64_t> mine(indices.begin() + shard.first,
                                  indices.begin() + shard.first + shard.size);
  const BatchShardScope scope(shard);
  return task.trainBatch(mine);
}

void DataParallelTraining::vote(bool stop, bool time_up) {
  stop_vote_ = stop ? 1 : 0;
  time_up_vote_ = time_up ? 1 : 0;
}

void DataParallelTraining::backwardAndReduce(const BatchOutcome& out, HostStepFigures& figures) {
  if (out.loss.requires_grad()) out.loss.backward();
  const auto t0 = Clock::now();
  std::vector<double> sums(kStepSums, 0.0);
  sums[kCounted] = figures.counted;
  sums[kLossTimesCounted] = figures.counted > 0 ? figures.loss * figures.counted : 0.0;
  sums[kCorrect] = figures.correct;
  sums[kSamples] = static_cast<double>(figures.samples);
  sums[kStopVotes] = stop_vote_;
  sums[kTimeUpVotes] = time_up_vote_;
  sums[kCheckpointStep] = leads() ? static_cast<double>(last_checkpoint_step_ + 1) : 0.0;
  buckets_->allReduce(*group_, sums);
  reduce_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
  ++steps_;
  figures.counted = sums[kCounted];
  figures.correct = sums[kCorrect];
  figures.samples = static_cast<int64_t>(sums[kSamples]);
  figures.loss = sums[kCounted] > 0 ? sums[kLossTimesCounted] / sums[kCounted] : 0.0;
  stop_agreed_ = sums[kStopVotes] > 0;
  time_up_agreed_ = sums[kTimeUpVotes] > 0;
  last_checkpoint_step_ = static_cast<int64_t>(sums[kCheckpointStep]) - 1;
}

std::string DataParallelTraining::summary() const {
  const double share = step_seconds_ > 0 ? 100.0 * reduce_seconds_ / step_seconds_ : 0.0;
  return fmt::format(
      "data parallel: {} ranks over {}, {} gradient bucket(s) of {:.1f} MB in all per step; "
      "all-reduce {:.2f} s of {:.2f} s in {} steps ({:.1f} % of a step)",
      job().world_size, group_->backend(), buckets_ ? buckets_->bucketCount() : 0,
      buckets_ ? static_cast<double>(buckets_->bytes()) / 1e6 : 0.0, reduce_seconds_, step_seconds_,
      steps_, share);
}

}  // namespace ascope
