#pragma once
// The validation samples of a configuration as a person browses them to choose the probe set: the
// same split and order a run's probes index (TrainingConfig::probe_samples), each as the Sample
// dock shows it (the review or source text, the image, the true label). Plain C++ header; the
// .cpp builds the task with LibTorch. Building it reads the data (and a pretrained model's
// weights): call off a GUI thread.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

struct ValidationSamples {
  int64_t total = 0;  ///< samples in the validation split
  /// Samples first .. first + count - 1 (fewer at the end of the split); predictions left empty.
  std::vector<SamplePrediction> samples;
  std::vector<std::string> warnings;  ///< from reading the data
};

/// Builds the task of `config` on the CPU and reads `count` validation samples from `first`.
/// Errors: the config's own (validate()), a dataset or model that cannot be read, `first` or
/// `count` below 0.
Expected<ValidationSamples> readValidationSamples(const TrainingConfig& config, int64_t first,
                                                  int count);

}  // namespace ascope
