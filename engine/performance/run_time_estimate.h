#pragma once
// How long a run will take on its device, worked out before it starts, so that a front end can
// say "about 10 hours on this CPU" and ask before starting it. The work of a step is the task's own
// analytic count (TaskDescriptor::step_flops; what `bench` reports as GFLOP per step); the device's
// speed is an assumed sustained training rate (assumedTrainingGflops), so the figure is the right
// order of magnitude, not a promise. Plain C++.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

struct RunTimeEstimate {
  double flops_per_step = 0;  ///< forward and backward matrix products of one batch
  int64_t steps = 0;
  double device_gflops = 0;  ///< the sustained rate assumed for the device
  double seconds = 0;
  /// What the device is ("NVIDIA H200, 139.8 GiB · LibTorch 2.11.0, CUDA 13.0"); "" when not
  /// asked (the estimate from figures alone).
  std::string device;
};

/// steps × flops_per_step at device_gflops × 10⁹ per second. Non-positive or non-finite inputs
/// give an estimate of 0 seconds (nothing known, nothing to warn about).
RunTimeEstimate estimateRunTime(double flops_per_step, int64_t steps, double device_gflops);

/// The GFLOP/s a training step sustains: on a CPU `cpus` × kCpuCoreTrainingGflops; on CUDA
/// kCudaTrainingGflops.
double assumedTrainingGflops(const std::string& device, int cpus);
/// Measured: `bench --task vit --preset seed --device cpu` ran 49.3 GFLOP/s on a 2-CPU machine
/// (16 s a step). Small models (the laptop presets) reach a tenth of that, overheads dominating:
/// their estimates come out low, but those runs take minutes either way.
inline constexpr double kCpuCoreTrainingGflops = 25.0;
/// A data-centre GPU in float32 without tensor cores, at the same share of its peak.
inline constexpr double kCudaTrainingGflops = 15000.0;

/// The steps `config` trains: max_steps, else epochs × ceil(train_samples / batch_size).
int64_t plannedSteps(const TrainingConfig& config, int64_t train_samples);

/// Training samples known without reading the data: the built-in dataset's size; nullopt for a
/// dataset on disk.
std::optional<int64_t> knownTrainSamples(const TrainingConfig& config);

/// The estimate of `config` on its device with `cpus` CPUs. The work of a step is what the task's
/// descriptor counts (step_flops: its own model or, with config.pretrained, the Hugging Face model
/// of its config.json, read there: call off a GUI thread). nullopt when the steps cannot be known
/// before the data is read (a dataset on disk and no max_steps); an error when the task or the
/// pretrained config cannot be read.
Expected<std::optional<RunTimeEstimate>> estimateRunTime(const TrainingConfig& config, int cpus);

/// "about 10 h", "about 25 min", "under a minute".
std::string durationText(double seconds);

}  // namespace ascope
