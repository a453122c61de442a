#include "engine/tasks/registry/run_config_reader.h"

#include <filesystem>
#include <system_error>

#include "engine/core/printable_text.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope {

Status checkRunSettings(const TrainingConfig& config, const std::string& config_path) {
  // As a run that goes on: the settings it was started with stand (validateConfig's check of a
  // fine-tune's preset is for new runs).
  TrainingConfig stored = config;
  stored.resume = true;
  if (Status s = validateSettings(stored); !s.ok()) return Error{config_path + ": " + s.error()};
  return {};
}

Status checkSettingsOfKnownTask(const TrainingConfig& config, const std::string& config_path) {
  if (TaskRegistry::instance().find(config.task) == nullptr) return {};
  return checkRunSettings(config, config_path);
}

Expected<TrainingConfig> readRunConfig(const std::string& run_dir) {
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return Error{folder.error()};
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return Error{config.error()};
  if (Status s = checkRunSettings(*config, folder->configPath()); !s.ok()) return Error{s.error()};
  return config;
}

std::vector<std::string> dataPathsOf(const TrainingConfig& config) {
  std::vector<std::string> paths;
  if (config.data != "builtin" && !config.data.empty()) paths.push_back(config.data);
  for (const std::string* named : {&config.splits.validation_data, &config.splits.test_data}) {
    if (!named->empty()) paths.push_back(*named);
  }
  return paths;
}

bool isRunsOwnData(const TrainingConfig& config, const std::string& data) {
  std::error_code ec;
  return data == config.data || std::filesystem::equivalent(config.data, data, ec);
}

TrainingConfig withNamedData(TrainingConfig config, const std::string& data) {
  if (!isRunsOwnData(config, data)) {
    config.splits.validation_data.clear();
    config.splits.test_data.clear();
  }
  config.data = data;
  return config;
}

std::string unnamedDataMessage(const TrainingConfig& config, const std::string& config_path,
                               const std::string& how_to_name) {
  const std::vector<std::string> paths = dataPathsOf(config);
  if (paths.empty()) return {};
  std::string named;
  for (const std::string& path : paths) {
    named += (named.empty() ? "\"" : ", \"") + printableText(path) + "\"";
  }
  return config_path + " names its data (" + named +
         "): a run folder's settings never open a file on their own; " + how_to_name;
}

}  // namespace ascope
