#include "app/cli/training_overrides.h"

#include <torch/cuda.h>

#include <filesystem>

#include "engine/run/run_folder.h"

namespace ascope::cli {

std::string defaultDevice() {
  return torch::cuda::is_available() ? "cuda" : "cpu";
}

Expected<TrainingConfig> trainingConfigFromOptions(const CliOptions& o) {
  if (o.has("--epochs") && o.has("--steps")) {
    return Error{"give either --epochs or --steps, not both (--steps N trains exactly N steps)"};
  }
  TrainingConfig config;
  if (const auto resume = o.text("--resume")) {
    // A resumed run repeats the interrupted one exactly; these would make it a different run.
    for (const char* fixed : {"--task", "--preset", "--data", "--out", "--seed", "--batch-size",
                              "--lr", "--source-lang", "--target-lang"}) {
      if (o.has(fixed)) {
        return Error{std::string(fixed) +
                     " cannot change a resumed run (it keeps the settings in " + *resume +
                     "/config.json); start a new run instead"};
      }
    }
    Expected<RunFolder> folder = RunFolder::open(*resume);
    if (!folder.ok()) return Error{"--resume: " + folder.error()};
    Expected<TrainingConfig> saved = folder->readConfig();
    if (!saved.ok()) return Error{"--resume: " + saved.error()};
    config = *saved;
    config.resume = true;
    config.out_dir = *resume;
    config.interrupt_at_step = 0;
    // --epochs and --steps may extend the run: one replaces the other.
    if (o.has("--epochs")) config.max_steps = 0;
  } else {
    const auto task = o.text("--task");
    if (!task) return Error{"--task is required (vit, imdb or translate)"};
    const std::string device = o.text("--device").value_or(defaultDevice());
    // Without a GPU the reference configurations take hours; laptop is the sensible default.
    const std::string preset = o.text("--preset").value_or(device == "cuda" ? "seed" : "laptop");
    Expected<TrainingConfig> p = makePreset(*task, preset);
    if (!p.ok()) return Error{p.error()};
    config = *p;
    config.device = device;
    config.data = o.text("--data").value_or("builtin");
    if (config.data != "builtin" && !std::filesystem::exists(config.data)) {
      return Error{"--data: " + config.data + ": no such file or folder"};
    }
    config.out_dir = o.text("--out").value_or("");
    if (o.has("--source-lang") || o.has("--target-lang")) {
      if (*task != "translate")
        return Error{"--source-lang/--target-lang are for --task translate"};
      config.source_language = o.text("--source-lang").value_or(config.source_language);
      config.target_language = o.text("--target-lang").value_or(config.target_language);
    }
  }
  if (const auto device = o.text("--device")) config.device = *device;
  if (o.has("--bf16")) config.bf16 = true;

  auto integer = [&o](const char* key, int64_t minimum, auto& field) -> Status {
    Expected<std::optional<int64_t>> v = o.integer(key, minimum);
    if (!v.ok()) return Error{v.error()};
    if (*v) field = static_cast<std::remove_reference_t<decltype(field)>>(**v);
    return {};
  };
  auto number = [&o](const char* key, auto& field) -> Status {
    Expected<std::optional<double>> v = o.number(key);
    if (!v.ok()) return Error{v.error()};
    if (*v) field = **v;
    return {};
  };
  for (const Status& s :
       {integer("--epochs", 1, config.epochs), integer("--steps", 1, config.max_steps),
        integer("--batch-size", 1, config.batch_size), integer("--seed", 0, config.seed),
        integer("--threads", 1, config.threads),
        integer("--interrupt-at-step", 1, config.interrupt_at_step),
        number("--lr", config.optimization.lr), number("--max-seconds", config.max_seconds)}) {
    if (!s.ok()) return Error{s.error()};
  }
  config.stop_on_nonfinite = true;
  if (Status s = config.validate(); !s.ok()) return Error{s.error()};
  return config;
}

}  // namespace ascope::cli
