#include "engine/train/run_time_estimate.h"

#include <cmath>
#include <cstdio>

#include "engine/models/model_flops.h"
#include "engine/pretrained/hf_model_config.h"
#include "engine/tasks/task_registry.h"

namespace ascope {
namespace {

/// The task's model as model_flops.h counts it: the descriptor says which kind of model it is
/// (images, a language pair, else one text sequence); config.pretrained replaces the sizes with
/// the Hugging Face model's.
Expected<double> stepFlops(const TrainingConfig& config, const TaskDescriptor& task) {
  const std::string pretrained_config =
      config.pretrained.empty() ? std::string() : config.pretrained + "/config.json";
  if (task.image_side && task.image_side(config) > 0) {
    VisionTransformerConfig vit = config.vit;
    if (!pretrained_config.empty()) {
      Expected<VitConfig> hf = readVitConfig(pretrained_config);
      if (!hf.ok()) return Error{hf.error()};
      vit.image_size = hf->image_size;
      vit.patch_size = hf->patch_size;
      vit.channels = hf->num_channels;
      vit.hidden = hf->hidden_size;
      vit.layers = hf->num_hidden_layers;
      vit.heads = hf->num_attention_heads;
      vit.mlp_dim = hf->intermediate_size;
      vit.num_classes = hf->numLabels();
    }
    return trainingStepFlops(vit, config.batch_size);
  }
  if (task.language_pair) {
    const TranslatorConfig& t = config.translator;
    return trainingStepFlops(t, config.batch_size, t.seq_len, t.seq_len);
  }
  TextClassifierConfig text = config.text;
  if (!pretrained_config.empty()) {
    Expected<BertConfig> hf = readBertConfig(pretrained_config);
    if (!hf.ok()) return Error{hf.error()};
    text.vocab_size = hf->vocab_size;
    text.d_model = hf->hidden_size;
    text.layers = hf->num_hidden_layers;
    text.heads = hf->num_attention_heads;
    text.d_ff = hf->intermediate_size;
    text.num_classes = hf->numLabels();
  }
  return trainingStepFlops(text, config.batch_size, text.max_len);
}

}  // namespace

RunTimeEstimate estimateRunTime(double flops_per_step, int64_t steps, double device_gflops) {
  RunTimeEstimate e;
  e.flops_per_step = flops_per_step;
  e.steps = steps;
  e.device_gflops = device_gflops;
  const bool known = std::isfinite(flops_per_step) && flops_per_step > 0 && steps > 0 &&
                     std::isfinite(device_gflops) && device_gflops > 0;
  e.seconds = known ? flops_per_step * static_cast<double>(steps) / (device_gflops * 1e9) : 0;
  return e;
}

double assumedTrainingGflops(const std::string& device, int cpus) {
  if (device == "cuda") return kCudaTrainingGflops;
  return kCpuCoreTrainingGflops * std::max(1, cpus);
}

int64_t plannedSteps(const TrainingConfig& config, int64_t train_samples) {
  if (config.max_steps > 0) return config.max_steps;
  if (train_samples <= 0 || config.batch_size <= 0 || config.epochs <= 0) return 0;
  const int64_t per_epoch =
      train_samples / config.batch_size + (train_samples % config.batch_size != 0);
  int64_t steps = 0;
  if (__builtin_mul_overflow(per_epoch, int64_t{config.epochs}, &steps)) return INT64_MAX;
  return steps;
}

std::optional<int64_t> knownTrainSamples(const TrainingConfig& config) {
  if (config.data.empty() || config.data == "builtin") return config.builtin.train_count;
  return std::nullopt;
}

Expected<std::optional<RunTimeEstimate>> estimateRunTime(const TrainingConfig& config, int cpus) {
  Expected<const TaskDescriptor*> task = findTask(config.task);
  if (!task.ok()) return Error{task.error()};
  int64_t steps = config.max_steps;
  if (steps <= 0) {
    const std::optional<int64_t> samples = knownTrainSamples(config);
    if (!samples) return std::optional<RunTimeEstimate>();
    steps = plannedSteps(config, *samples);
  }
  Expected<double> flops = stepFlops(config, **task);
  if (!flops.ok()) return Error{flops.error()};
  return std::optional<RunTimeEstimate>(
      estimateRunTime(*flops, steps, assumedTrainingGflops(config.device, cpus)));
}

std::string durationText(double seconds) {
  char text[48];
  if (seconds < 60) return "under a minute";
  if (seconds < 3600) {
    std::snprintf(text, sizeof text, "about %.0f min", std::round(seconds / 60));
  } else if (seconds < 48 * 3600) {
    std::snprintf(text, sizeof text, "about %.0f h", std::round(seconds / 3600));
  } else {
    std::snprintf(text, sizeof text, "about %.0f days", std::round(seconds / 86400));
  }
  return text;
}

}  // namespace ascope
