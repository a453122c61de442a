#pragma once
// The settings in which two runs differ, for comparing them side by side: every leaf of the two
// config.json objects, by its JSON pointer ("/optimization/lr"), kept only where the values differ.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct SettingDifference {
  std::string key;  ///< JSON pointer of the setting, e.g. "/optimization/lr"
  std::string a;    ///< its value in the first config, as JSON text; "" when absent there
  std::string b;    ///< and in the second
};

/// The differing leaves of `a` and `b`, sorted by key; a key present in only one of them counts.
std::vector<SettingDifference> differingSettings(const nlohmann::json& a, const nlohmann::json& b);

/// `differences` without the settings that only say where something is: the run's own folder
/// (out_dir) always; a dataset or model path (data, pretrained) when both name a file or folder
/// of the same name, i.e. the same data in another place. Two runs compared differ in their
/// folders by definition; that is no setting worth a row.
std::vector<SettingDifference> withoutLocations(std::vector<SettingDifference> differences);

/// The differing settings of two run folders' config.json files (read with the size and nesting
/// limits of config.json), locations left out; an error names the file that cannot be read.
Expected<std::vector<SettingDifference>> differingRunSettings(const std::string& run_a,
                                                              const std::string& run_b);

}  // namespace ascope
