#include "app/cli/training/training_overrides.h"

#include <cstdio>

#include "app/cli/task_help.h"
#include "engine/device/device_query.h"
#include "engine/models/translator_config.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/translation/translation_descriptor.h"

namespace ascope::cli {
namespace {

Expected<TrainingConfig> resumedConfig(const std::string& run_dir) {
  Expected<TrainingConfig> saved = readRunConfig(run_dir);
  if (!saved.ok()) return Error{"--resume: " + saved.error()};
  TrainingConfig config = *saved;
  config.resume = true;
  config.out_dir = run_dir;
  config.interrupt_at_step = 0;
  return config;
}

Expected<TrainingConfig> newConfig(const TrainingOptions& o) {
  if (!o.task) return Error{"--task is required: " + taskIds()};
  Expected<const TaskDescriptor*> task = findTask(*o.task);
  if (!task.ok()) return Error{"--task: " + task.error()};
  const std::string device = o.device.value_or(defaultDevice());
  Expected<TrainingConfig> preset = makePreset(
      *o.task, o.preset.value_or((*task)->defaultPreset(device == "cuda", o.model.has_value())));
  if (!preset.ok()) return Error{"--preset: " + preset.error()};
  TrainingConfig config = *preset;
  config.device = device;
  config.data = o.data.value_or("builtin");
  config.pretrained = o.model.value_or("");
  config.out_dir = o.out.value_or("");
  if (o.source_lang || o.target_lang) {
    if (!(*task)->set_languages) {
      const std::string with_pair = languagePairTaskIds();
      return Error{"--source-lang/--target-lang are for a task with a language pair" +
                   (with_pair.empty() ? std::string() : " (" + with_pair + ")") + ", not " +
                   *o.task};
    }
    (*task)->set_languages(config, o.source_lang, o.target_lang);
  }
  if (o.test_data) config.splits.test_data = *o.test_data;
  if (o.validation_data) config.splits.validation_data = *o.validation_data;
  if (o.test_fraction) config.splits.test_fraction = *o.test_fraction;
  if (o.validation_fraction) config.splits.validation_fraction = *o.validation_fraction;
  if (o.seed) config.seed = static_cast<uint64_t>(*o.seed);
  if (o.batch_size) config.batch_size = *o.batch_size;
  if (o.lr) config.optimization.lr = *o.lr;
  if (o.pieces) {
    if (config.task != kTranslationTaskId) {
      return Error{"--pieces is for the translation task, not " + *o.task};
    }
    config.task_settings.as<TranslatorConfig>().piece_vocab_size = *o.pieces;
  }
  return config;
}

}  // namespace

std::string defaultDevice() {
  return cudaAvailable() ? "cuda" : "cpu";
}

Expected<TrainingConfig> trainingConfigFromOptions(const TrainingOptions& o) {
  Expected<TrainingConfig> made = o.resume ? resumedConfig(*o.resume) : newConfig(o);
  if (!made.ok()) return made;
  TrainingConfig config = std::move(*made);
  // A resumed run may be extended: --epochs replaces the step count it had and --steps the epochs.
  if (o.epochs) {
    config.epochs = static_cast<int>(*o.epochs);
    config.max_steps = 0;
  }
  if (o.steps) config.max_steps = *o.steps;
  if (o.max_seconds) config.max_seconds = *o.max_seconds;
  if (o.device) config.device = *o.device;
  if (o.bf16) config.bf16 = true;
  if (o.resume && !o.bf16 && config.bf16 && config.device != "cuda") {
    // A run trained with bf16 on a GPU server goes on here in float32, as it can.
    std::fprintf(stderr,
                 "attentionscope-cli: note: %s was trained with bf16 on CUDA; on the %s it goes "
                 "on in float32\n",
                 o.resume->c_str(), config.device.c_str());
    config.bf16 = false;
  }
  if (o.threads) config.threads = static_cast<int>(*o.threads);
  if (o.interrupt_at_step) config.interrupt_at_step = *o.interrupt_at_step;
  if (!o.probe.empty()) config.probe_samples = o.probe;
  if (o.no_head_statistics) config.head_statistics = false;
  if (o.probe_every_steps) config.probe_every_steps = *o.probe_every_steps;
  if (o.probe_every_seconds) config.probe_every_seconds = *o.probe_every_seconds;
  if (o.snapshot_budget_mb) config.snapshot_budget_mb = *o.snapshot_budget_mb;
  if (o.snapshot_every_steps) config.snapshot_every_steps = *o.snapshot_every_steps;
  config.stop_on_nonfinite = true;
  if (Status s = validateConfig(config); !s.ok()) {
    // A value from a hand-edited or foreign config.json: say where it came from.
    if (o.resume) return Error{"--resume: " + *o.resume + "/config.json: " + s.error()};
    return Error{s.error()};
  }
  return config;
}

}  // namespace ascope::cli
