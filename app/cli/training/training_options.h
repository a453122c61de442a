#pragma once
// The command-line options that shape a TrainingConfig, and the declarations `train` and `bench`
// share (one declaration per option, so both commands check it the same way).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace ascope::cli {

/// Unset: keep the value of the preset (or of the resumed run).
struct TrainingOptions {
  std::optional<std::string> task, preset, data, out, resume, device, source_lang, target_lang;
  std::optional<std::string> model;  ///< a Hugging Face model folder to fine-tune
  std::optional<std::string> test_data, validation_data;  ///< named held-out files
  std::optional<double> test_fraction, validation_fraction;
  std::optional<int64_t> epochs, steps, batch_size, seed, threads, interrupt_at_step;
  std::optional<int64_t> pieces;  ///< translation: pieces per language, 0 for whole words
  std::optional<double> lr, max_seconds;
  bool bf16 = false;
  std::vector<int> probe;  ///< validation samples probed; empty = the preset's
  bool no_head_statistics = false;
  std::optional<int64_t> snapshot_budget_mb, probe_every_steps, snapshot_every_steps;
  std::optional<double> probe_every_seconds;
  std::optional<int> nproc;            ///< train: ranks of a data-parallel job on this machine
  std::optional<double> dist_timeout;  ///< train: the job's longest wait for a rank, in seconds
};

/// --task, checked against the task registry while parsing.
CLI::Option* addTaskOption(CLI::App& command, TrainingOptions& o);
CLI::Option* addPresetOption(CLI::App& command, TrainingOptions& o);
/// --data: "builtin" or a path that exists (the task reads it later and names what is wrong).
CLI::Option* addDataOption(CLI::App& command, TrainingOptions& o);
CLI::Option* addDeviceOption(CLI::App& command, std::optional<std::string>& device,
                             const std::string& help);
/// --steps; `help` says what the steps are for in this command.
CLI::Option* addStepsOption(CLI::App& command, TrainingOptions& o, const std::string& help);
CLI::Option* addBatchSizeOption(CLI::App& command, TrainingOptions& o);
CLI::Option* addThreadsOption(CLI::App& command, TrainingOptions& o);
/// --seed N: every random choice of a run, the carving of its held-out splits included.
CLI::Option* addSeedOption(CLI::App& command, TrainingOptions& o);
/// --test-data, --validation-data, --test-fraction, --validation-fraction: where a run's held-out
/// splits come from (engine/vocabulary/data_split.h), for `train` and `split` alike.
std::vector<CLI::Option*> addHeldOutOptions(CLI::App& command, TrainingOptions& o);
/// --beam K for `infer` and `evaluate`: a translation run decodes with a beam of K hypotheses.
CLI::Option* addBeamOption(CLI::App& command, std::optional<int64_t>& beam);
/// --probe, --no-head-stats, --snapshot-budget: what the run watches and keeps.
void addProbeOptions(CLI::App& command, TrainingOptions& o);

}  // namespace ascope::cli
