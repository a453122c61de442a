#pragma once
// The one reader of a run folder's settings, for every front end: the window (readRun, a followed
// run), `infer`, `evaluate`, `ablate` and `train --resume` all take a run's config.json through
// it, so that each refuses what the trainer would refuse, with the same message.
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

/// The settings of the run in `run_dir`: config.json read as the folder's own file (a regular
/// file, not a link, within 1 MiB and 32 levels of nesting), checked as a run's (not a pretrained
/// model's config.json), every setting's JSON type and range, then validateSettings: the checks
/// `--resume` makes, with messages naming the file and the setting ("runs/x/config.json: model
/// settings "text.dropout" must be a number, got "0.1""). Nothing a setting names (the data, a
/// pretrained folder) is opened or looked at: that is for the caller, once the user named it.
Expected<TrainingConfig> readRunConfig(const std::string& run_dir);

/// validateConfig's checks of the values alone (engine/tasks/registry/task_registry.h): nothing
/// a setting names (the data, a pretrained folder) is looked at.
Status validateSettings(const TrainingConfig& config);

/// readRunConfig's checks of the values of settings already read from `config_path` (the window's
/// readRunFiles reads config.json with the rest of the folder); the error names `config_path`.
Status checkRunSettings(const TrainingConfig& config, const std::string& config_path);

/// checkRunSettings for a run of a task this build knows; the settings of another task's run pass
/// (the handout, which builds no model, shows such a run with generic names).
Status checkSettingsOfKnownTask(const TrainingConfig& config, const std::string& config_path);

/// The paths a run's settings name that a reader would open to read its data: `data` unless
/// built-in, and the validation and test files of `splits`; empty for a run of built-in data.
/// A reader opens none of them unless the user names the data again (withNamedData) or, in the
/// window, confirms it: a run folder is untrusted input, and its config.json naming
/// /some/secret as its data had that file read and its first line printed.
std::vector<std::string> dataPathsOf(const TrainingConfig& config);

/// `config` (a run's) reading `data`, a data set the user named for this command: `data` replaces
/// the run's, and the validation and test files named beside the run's data are kept only when
/// `data` is that same data set (the same file or folder), so the run's own data gives back the
/// run's own splits; the rest are carved from `data` as training carved them.
TrainingConfig withNamedData(TrainingConfig config, const std::string& data);

/// Whether `data` is the data set the run trained on (the same path, or the same file or folder).
bool isRunsOwnData(const TrainingConfig& config, const std::string& data);

/// "RUN/config.json names its data "/x" (and its validation file "/y"): …" — the refusal when a
/// command would read a run's data without the user naming it; empty when `config` names no path.
std::string unnamedDataMessage(const TrainingConfig& config, const std::string& config_path,
                               const std::string& how_to_name);

}  // namespace ascope
