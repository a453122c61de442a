// makePreset and validateConfig (declared in task_registry.h): the registry's view of a config.
#include <filesystem>
#include <system_error>

#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope {

Expected<TrainingConfig> makePreset(const std::string& task, const std::string& preset) {
  Expected<const TaskDescriptor*> descriptor = findTask(task);
  if (!descriptor.ok()) return Error{descriptor.error()};
  if (!(*descriptor)->hasPreset(preset)) {
    return Error{"unknown preset \"" + preset + "\" (expected " + (*descriptor)->presetList() +
                 ")"};
  }
  return (*descriptor)->make_preset(preset);
}

namespace {

/// validateConfig, with `look_at_files` false for validateSettings: nothing named is stat'ed.
Status validate(const TrainingConfig& config, bool look_at_files) {
  Expected<const TaskDescriptor*> descriptor = findTask(config.task);
  if (!descriptor.ok()) return Error{descriptor.error()};
  if (Status s = config.validateCommon(); !s.ok()) return s;
  if (!config.pretrained.empty()) {
    if (!(*descriptor)->fine_tunes_pretrained) {
      return Error{"task " + config.task + " cannot fine-tune a pretrained model (pretrained \"" +
                   config.pretrained + "\")"};
    }
    // A resumed run keeps the settings it was started with, whatever they were.
    const std::string& fine_tune = (*descriptor)->fine_tune_preset;
    if (!config.resume && !fine_tune.empty() && config.preset != fine_tune) {
      return Error{"preset: a pretrained model is fine-tuned with the " + fine_tune +
                   " preset; \"" + config.preset + "\" trains a model from scratch (its " +
                   "learning rate and batch size would ruin the pretrained weights)"};
    }
    std::error_code ec;
    const std::filesystem::path model_config =
        std::filesystem::path(config.pretrained) / "config.json";
    if (look_at_files && !std::filesystem::is_regular_file(model_config, ec)) {
      return Error{"pretrained: " + model_config.string() +
                   " not found: give a Hugging Face model folder (config.json, "
                   "model.safetensors or pytorch_model.bin, the tokenizer's or image "
                   "processor's files)"};
    }
  }
  return (*descriptor)->validate(config);
}

}  // namespace

Status validateConfig(const TrainingConfig& config) {
  return validate(config, /*look_at_files=*/true);
}

Status validateSettings(const TrainingConfig& config) {
  return validate(config, /*look_at_files=*/false);
}

}  // namespace ascope
