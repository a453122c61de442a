// config.json ⇄ TrainingConfig (declared in engine/vocabulary/training_config.h). Plain C++ (no
// task registry, no LibTorch), so that it lives in attentionscope_data and can be fuzzed
// (tests/fuzz/config_json_fuzzer.cpp); validateConfig, which needs the registry, is the task
// registry's.
#include <nlohmann/json.hpp>
#include <string>

#include "engine/vocabulary/json_integral_settings.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OptimizationConfig, optimizer, lr, weight_decay,
                                                adam_eps, schedule, warmup_steps, min_lr_ratio,
                                                grad_clip, label_smoothing)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BuiltinDataConfig, train_count, test_count, seed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DataSplitsConfig, validation_data, test_data,
                                                validation_fraction, test_fraction, layout)

// The model settings sit under their task's own key (ModelSettings), as they have since the
// first run folders ("vit", "text", "translator"), so that every config.json written before still
// opens.
void to_json(nlohmann::json& j, const TrainingConfig& c) {
  j = nlohmann::json{{"task", c.task},
                     {"data", c.data},
                     {"preset", c.preset},
                     {"epochs", c.epochs},
                     {"max_steps", c.max_steps},
                     {"max_seconds", c.max_seconds},
                     {"batch_size", c.batch_size},
                     {"bucket_by_length", c.bucket_by_length},
                     {"optimization", c.optimization},
                     {"device", c.device},
                     {"bf16", c.bf16},
                     {"seed", c.seed},
                     {"threads", c.threads},
                     {"probe_every_steps", c.probe_every_steps},
                     {"probe_every_seconds", c.probe_every_seconds},
                     {"probe_samples", c.probe_samples},
                     {"head_statistics", c.head_statistics},
                     {"probe_time_share", c.probe_time_share},
                     {"snapshot_budget_mb", c.snapshot_budget_mb},
                     {"snapshot_every_steps", c.snapshot_every_steps},
                     {"eval_every_steps", c.eval_every_steps},
                     {"eval_max_samples", c.eval_max_samples},
                     {"decode_samples", c.decode_samples},
                     {"final_weights", c.final_weights},
                     {"checkpoint_every_steps", c.checkpoint_every_steps},
                     {"builtin", c.builtin},
                     {"augment", c.augment},
                     {"min_freq", c.min_freq},
                     {"source_language", c.source_language},
                     {"target_language", c.target_language},
                     {"splits", c.splits},
                     {"pretrained", c.pretrained},
                     {"out_dir", c.out_dir},
                     {"stop_on_nonfinite", c.stop_on_nonfinite}};
  c.model.writeTo(j);
}

namespace {

/// Reads every common setting of `j` into `c`; the model settings stay sections for the task.
void readSettings(const nlohmann::json& j, TrainingConfig& c) {
  const TrainingConfig d;
  auto get = [&j](const char* key, auto& field) {
    if (j.contains(key)) j.at(key).get_to(field);
  };
  c = d;
  get("task", c.task);
  get("data", c.data);
  get("preset", c.preset);
  get("epochs", c.epochs);
  get("max_steps", c.max_steps);
  get("max_seconds", c.max_seconds);
  get("batch_size", c.batch_size);
  get("bucket_by_length", c.bucket_by_length);  // absent from runs made before bucketing: false
  get("optimization", c.optimization);
  get("device", c.device);
  get("bf16", c.bf16);
  get("seed", c.seed);
  get("threads", c.threads);
  get("probe_every_steps", c.probe_every_steps);
  get("probe_every_seconds", c.probe_every_seconds);
  // Runs made before the probe set had one probe sample.
  if (j.contains("probe_sample") && !j.contains("probe_samples")) {
    c.probe_samples = {j.at("probe_sample").get<int>()};
  }
  get("probe_samples", c.probe_samples);
  get("head_statistics", c.head_statistics);
  get("probe_time_share", c.probe_time_share);
  get("snapshot_budget_mb", c.snapshot_budget_mb);
  get("snapshot_every_steps", c.snapshot_every_steps);
  get("eval_every_steps", c.eval_every_steps);
  get("eval_max_samples", c.eval_max_samples);
  get("decode_samples", c.decode_samples);
  get("final_weights", c.final_weights);  // absent from runs made before the final test: "best"
  get("checkpoint_every_steps", c.checkpoint_every_steps);
  get("builtin", c.builtin);
  get("augment", c.augment);
  get("min_freq", c.min_freq);
  get("source_language", c.source_language);
  get("target_language", c.target_language);
  // Runs made before separate validation and test splits have no "splits": their held-out split
  // was both, and so it stays for them (layout 1).
  if (j.contains("splits")) {
    get("splits", c.splits);
  } else {
    c.splits.layout = 1;
  }
  c.model.readFrom(j, {"optimization", "builtin", "splits"});
  get("pretrained", c.pretrained);  // absent from runs made before fine-tuning: our own model
  get("out_dir", c.out_dir);
  get("stop_on_nonfinite", c.stop_on_nonfinite);
}

}  // namespace

void from_json(const nlohmann::json& input, TrainingConfig& c) {
  // nlohmann's own messages name no setting, and it narrows numbers silently (issue 27): the
  // types are checked against the settings as they are written first, the ranges after.
  if (!input.is_object()) {
    throw nlohmann::json::type_error::create(
        302,
        std::string("not an object of settings (\"task\": …, \"data\": …) but of type ") +
            input.type_name(),
        &input);
  }
  const TrainingConfig d;
  const nlohmann::json defaults(d);
  if (Status s = checkSettingTypes(input, defaults); !s.ok()) {
    throw nlohmann::json::type_error::create(302, s.error(), &input);
  }
  if (input.contains("probe_sample") && !input.at("probe_sample").is_number_integer()) {
    throw nlohmann::json::type_error::create(
        302, "\"probe_sample\" must be a whole number, got " + input.at("probe_sample").dump(),
        &input);
  }
  const nlohmann::json j = integralSettings(input, defaults);
  readSettings(j, c);
  if (Status s = checkSettingRanges(j, nlohmann::json(c)); !s.ok()) {
    throw nlohmann::json::out_of_range::create(406, s.error(), &input);
  }
}

}  // namespace ascope
