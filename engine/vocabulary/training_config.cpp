#include "engine/vocabulary/training_config.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "engine/vocabulary/config_checks.h"
#include "engine/vocabulary/learning_rate_bounds.h"

namespace ascope {

namespace {

// The same ceilings as the CLI's option ranges (app/cli), so that config.json, read back on
// --resume or by the GUI, cannot carry what the command line refuses: a batch size whose
// arithmetic overflows, a thousand threads, a run of 2^63 steps.
constexpr int64_t kMaxEpochs = 1'000'000;
constexpr int64_t kMaxSteps = 1'000'000'000'000;
constexpr double kMaxSeconds = 1e7;
constexpr double kMaxProbeSeconds = 1e9;  // "never by time": tests and scripts probe by steps only
constexpr int64_t kMaxSamples = 100'000'000;
constexpr int64_t kMaxBuiltinSamples = 1'000'000;
constexpr int64_t kMaxProbeSamples = 16;

/// config.json keeps every text setting, and JSON holds UTF-8 only: a folder name with another
/// byte made writing it fail with nlohmann's "[json.exception.type_error.316]".
Status utf8Text(const char* field, const std::string& value) {
  try {
    (void)nlohmann::json(value).dump();
    return {};
  } catch (const nlohmann::json::type_error&) {
    const std::string shown =
        nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return Error{std::string(field) + " " + shown +
                 " holds bytes that are not UTF-8 text (shown as �): config.json keeps only "
                 "UTF-8; rename the file or folder"};
  }
}

}  // namespace

Status TrainingConfig::validateCommon() const {
  using namespace config_checks;
  for (const auto& [field, value] :
       {std::pair{"task", &task}, std::pair{"data", &data}, std::pair{"preset", &preset},
        std::pair{"out_dir", &out_dir}, std::pair{"pretrained", &pretrained},
        std::pair{"device", &device}, std::pair{"final_weights", &final_weights}}) {
    if (Status s = utf8Text(field, *value); !s.ok()) return s;
  }
  if (device != "cpu" && device != "cuda") {
    return Error{"device must be cpu or cuda, got \"" + device + "\""};
  }
  if (bf16 && device != "cuda") {
    // It was accepted and recorded in config.json, and did nothing.
    return Error{"bf16 needs device cuda: autocast to bfloat16 runs on a GPU only, not on the " +
                 device};
  }
  for (const Status& s :
       {inRange("epochs", epochs, 1, kMaxEpochs),
        inRange("batch_size", batch_size, 1, 65'536),
        inRange("max_steps", max_steps, 0, kMaxSteps),
        inRange("threads", threads, 0, 1024),
        inRange("probe_every_steps", probe_every_steps, 1, kMaxSteps),
        inRange("probe_samples count", static_cast<int64_t>(probe_samples.size()), 1,
                kMaxProbeSamples),
        inRange("snapshot_budget_mb", snapshot_budget_mb, 1, 1'000'000),
        inRange("snapshot_every_steps", snapshot_every_steps, 0, kMaxSteps),
        inRange("checkpoint_every_steps", checkpoint_every_steps, 1, kMaxSteps),
        inRange("eval_every_steps", eval_every_steps, 0, kMaxSteps),
        inRange("read_figures_every_steps", read_figures_every_steps, 0, kMaxSteps),
        inRange("eval_max_samples", eval_max_samples, 0, kMaxSamples),
        inRange("warmup_steps", optimization.warmup_steps, 0, kMaxSteps),
        inRange("average_last_epochs", optimization.average_last_epochs, 0, kMaxEpochs),
        inRange("builtin.train_count", builtin.train_count, 10, kMaxBuiltinSamples),
        inRange("builtin.test_count", builtin.test_count, 2, kMaxBuiltinSamples),
        realInRange("max_seconds", max_seconds, 0.0, kMaxSeconds),
        realInRange("splits.validation_fraction", splits.validation_fraction, 0.0, 0.5),
        realInRange("splits.test_fraction", splits.test_fraction, 0.0, 0.5),
        inRange("splits.layout", splits.layout, 1, 2),
        realInRange("weight_decay", optimization.weight_decay, 0.0, 10.0),
        realInRange("min_lr_ratio", optimization.min_lr_ratio, 0.0, 1.0),
        realInRange("grad_clip", optimization.grad_clip, 0.0, 1e6),
        oneOf("final_weights", final_weights, "best", "last"),
        oneOf("optimizer", optimization.optimizer, "adam", "adamw"),
        oneOf("schedule", optimization.schedule, "constant", "cosine")}) {
    if (!s.ok()) return s;
  }
  for (std::size_t i = 0; i < probe_samples.size(); ++i) {
    if (Status s = inRange("probe_samples", probe_samples[i], 0, kMaxSamples); !s.ok()) return s;
    for (std::size_t j = 0; j < i; ++j) {
      if (probe_samples[j] == probe_samples[i]) {
        return Error{"probe_samples lists sample " + std::to_string(probe_samples[i]) + " twice"};
      }
    }
  }
  // Validation decides the best weights: a run needs some, however small the share.
  if (splits.validation_data.empty() && !(splits.validation_fraction > 0.0)) {
    return Error{
        "splits.validation_fraction must be above 0 when no validation file is named, got " +
        show(splits.validation_fraction)};
  }
  if (!(probe_time_share > 0.0 && probe_time_share <= 1.0)) {
    return Error{"probe_time_share must be in (0, 1], got " + show(probe_time_share)};
  }
  if (!(probe_every_seconds > 0.0 && probe_every_seconds <= kMaxProbeSeconds)) {
    return Error{"probe_every_seconds must be in (0, " + show(kMaxProbeSeconds) + "], got " +
                 show(probe_every_seconds)};
  }
  if (!isAcceptedLearningRate(optimization.lr)) {
    return Error{"lr must be in (0, " + show(kMaxLearningRate) + "), got " + show(optimization.lr)};
  }
  if (!(optimization.adam_eps > 0.0 && optimization.adam_eps <= 1.0)) {
    return Error{"adam_eps must be in (0, 1], got " + show(optimization.adam_eps)};
  }
  if (Status s = probability("label_smoothing", optimization.label_smoothing); !s.ok()) return s;
  return {};
}

}  // namespace ascope
