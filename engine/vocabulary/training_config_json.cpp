// config.json ⇄ TrainingConfig (declared in engine/vocabulary/training_config.h). Plain C++ (no
// task registry, no LibTorch), so that it lives in attentionscope_data and can be fuzzed
// (tests/fuzz/config_json_fuzzer.cpp); validateConfig, which needs the registry, is the task
// registry's.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/vocabulary/training_config_json.h"

#include "engine/vocabulary/json_integral_settings.h"

namespace ascope {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OptimizationConfig, optimizer, lr, weight_decay,
                                                adam_eps, schedule, warmup_steps, min_lr_ratio,
                                                grad_clip, label_smoothing, average_last_epochs)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BuiltinDataConfig, train_count, test_count, seed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DataSplitsConfig, validation_data, test_data,
                                                validation_fraction, test_fraction, layout)

namespace {

/// The one list of config.json's common settings: each key with the field it holds, in the order
/// config.json has them. Writing, reading and the checks of what is read all walk this table, so
/// a new setting is one line here. Not in it: `task_settings` (the task's own sections),
/// and `resume`, `interrupt_at_step`, `inject_nan_at_step`, which belong to one invocation, not
/// to the run.
template <class Config, class Visit>
void forEachSetting(Config& c, Visit&& visit) {
  visit("task", c.task);
  visit("data", c.data);
  visit("preset", c.preset);
  visit("epochs", c.epochs);
  visit("max_steps", c.max_steps);
  visit("max_seconds", c.max_seconds);
  visit("batch_size", c.batch_size);
  visit("bucket_by_length", c.bucket_by_length);  // absent from runs made before bucketing
  visit("optimization", c.optimization);
  visit("device", c.device);
  visit("bf16", c.bf16);
  visit("seed", c.seed);
  visit("threads", c.threads);
  visit("probe_every_steps", c.probe_every_steps);
  visit("probe_every_seconds", c.probe_every_seconds);
  visit("probe_samples", c.probe_samples);
  visit("head_statistics", c.head_statistics);
  visit("probe_time_share", c.probe_time_share);
  visit("snapshot_budget_mb", c.snapshot_budget_mb);
  visit("snapshot_every_steps", c.snapshot_every_steps);
  visit("eval_every_steps", c.eval_every_steps);
  visit("eval_max_samples", c.eval_max_samples);
  visit("final_weights", c.final_weights);  // absent from runs made before the final test: "best"
  visit("checkpoint_every_steps", c.checkpoint_every_steps);
  visit("read_figures_every_steps", c.read_figures_every_steps);  // absent before: 0, by device
  visit("builtin", c.builtin);
  visit("splits", c.splits);
  visit("pretrained", c.pretrained);  // absent from runs made before fine-tuning: our own model
  visit("out_dir", c.out_dir);
  visit("stop_on_nonfinite", c.stop_on_nonfinite);
}

/// One setting of `j`, when it has it, into `field`: its JSON kind checked against the field's
/// as written (nlohmann's own messages name no setting), a whole number with a fraction refused,
/// and one too large for the field refused instead of narrowed ("epochs": 1e15 read as
/// -1530494976). Errors name the setting by its key in config.json.
template <class T>
Status readSetting(const nlohmann::json& j, const char* key, T& field) {
  const auto found = j.find(key);
  if (found == j.end()) return {};  // an older run's config.json: the setting's default
  const nlohmann::json written(field);
  // The one setting as an object of one, so that its errors name it by its key.
  if (Status s = checkSettingTypes({{key, *found}}, {{key, written}}); !s.ok()) return s;
  try {
    const nlohmann::json whole = integralSettings(*found, written);
    whole.get_to(field);
    return checkSettingRanges(whole, nlohmann::json(field), key);
  } catch (const nlohmann::json::exception& e) {
    return Error{"\"" + std::string(key) + "\": " + jsonErrorText(e)};
  }
}

/// A top-level key of config.json that is not a task's: a common setting, one of a single
/// invocation, or the probe sample of runs made before the probe set.
bool isCommonSetting(const std::string& key) {
  bool common = key == "resume" || key == "interrupt_at_step" || key == "inject_nan_at_step" ||
                key == "probe_sample";
  TrainingConfig c;
  forEachSetting(c, [&](const char* name, const auto&) { common = common || key == name; });
  return common;
}

}  // namespace

// The model settings sit under their task's own key (TaskSettings), as they have since the
// first run folders ("vit", "text", "translator"), so that every config.json written before still
// opens.
void to_json(nlohmann::json& j, const TrainingConfig& c) {
  j = nlohmann::json::object();
  forEachSetting(c, [&j](const char* key, const auto& field) { j[key] = field; });
  c.task_settings.writeTo(j);
}

Expected<TrainingConfig> readTrainingConfig(const nlohmann::json& j) {
  if (!j.is_object()) {
    return Error{std::string("not an object of settings (\"task\": …, \"data\": …) but of type ") +
                 j.type_name()};
  }
  TrainingConfig c;
  Status status;
  forEachSetting(c, [&](const char* key, auto& field) {
    if (status.ok()) status = readSetting(j, key, field);
  });
  if (!status.ok()) return Error{status.error()};
  // Runs made before the probe set had one probe sample.
  if (j.contains("probe_sample") && !j.contains("probe_samples")) {
    std::vector<int> one{0};
    if (Status s = readSetting(j, "probe_sample", one[0]); !s.ok()) return Error{s.error()};
    c.probe_samples = one;
  }
  // Runs made before separate validation and test splits have no "splits": their held-out split
  // was both, and so it stays for them (layout 1).
  if (!j.contains("splits")) c.splits.layout = 1;
  c.task_settings.readFrom(j, {"optimization", "builtin", "splits"}, isCommonSetting);
  return c;
}

void from_json(const nlohmann::json& j, TrainingConfig& c) {
  Expected<TrainingConfig> read = readTrainingConfig(j);
  if (!read.ok()) throw nlohmann::json::type_error::create(302, read.error(), &j);
  c = std::move(*read);
}

}  // namespace ascope
