#include "engine/inference/validation_samples.h"

#include <torch/utils.h>

#include <algorithm>

#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/task.h"

namespace ascope {

Expected<ValidationSamples> readValidationSamples(const TrainingConfig& config, int64_t first,
                                                  int count) {
  if (first < 0 || count < 0) {
    return Error{"validation samples from " + std::to_string(first) + ", " + std::to_string(count) +
                 " of them: both must be 0 or more"};
  }
  if (Status s = validateConfig(config); !s.ok()) return Error{s.error()};
  TrainingConfig cpu = config;
  cpu.device = "cpu";
  ValidationSamples result;
  Expected<std::unique_ptr<Task>> task =
      makeTrainingTask(cpu, torch::Device(torch::kCPU), &result.warnings);
  if (!task.ok()) return Error{task.error()};
  const torch::NoGradGuard no_grad;
  result.total = (*task)->validationSize();
  const int64_t end = std::min(result.total, first + count);
  for (int64_t i = first; i < end; ++i) {
    SamplePrediction sample = (*task)->predictSample(static_cast<int>(i));
    // An untrained model's guess is noise beside the sample; only the sample is asked for.
    sample.answer.clear();
    sample.probability = 0;
    sample.correct = false;
    sample.sample_index = static_cast<int>(i);
    result.samples.push_back(std::move(sample));
  }
  return result;
}

}  // namespace ascope
