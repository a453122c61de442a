#include "engine/runfolder/config/config_difference.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "engine/core/json_file.h"
#include "engine/core/json_limits.h"
#include "engine/runfolder/config/run_config_check.h"

namespace ascope {

std::vector<SettingDifference> differingSettings(const nlohmann::json& a, const nlohmann::json& b) {
  // flatten() turns nested objects into one level keyed by JSON pointers; an empty object or
  // array becomes a leaf of its own (null), which is what a reader of the table expects.
  const nlohmann::json flat_a = a.flatten();
  const nlohmann::json flat_b = b.flatten();
  std::map<std::string, SettingDifference> rows;
  for (auto it = flat_a.begin(); it != flat_a.end(); ++it) {
    const auto other = flat_b.find(it.key());
    if (other != flat_b.end() && *other == it.value()) continue;
    rows[it.key()] = {it.key(), it.value().dump(), other == flat_b.end() ? "" : other->dump()};
  }
  for (auto it = flat_b.begin(); it != flat_b.end(); ++it) {
    if (flat_a.contains(it.key())) continue;
    rows[it.key()] = {it.key(), "", it.value().dump()};
  }
  std::vector<SettingDifference> differences;
  differences.reserve(rows.size());
  for (auto& [key, row] : rows) differences.push_back(std::move(row));
  return differences;
}

namespace {

/// The last part of a path in a JSON string value ("\"/data/imdb.csv\"" → "imdb.csv"); the value
/// itself when it is not a string.
std::string lastPathPart(const std::string& json_value) {
  const nlohmann::json value = nlohmann::json::parse(json_value, nullptr, false);
  if (!value.is_string()) return json_value;
  std::filesystem::path path(value.get<std::string>());
  while (!path.empty() && path.filename().empty()) path = path.parent_path();  // "dir/"
  return path.filename().string();
}

}  // namespace

std::vector<SettingDifference> withoutLocations(std::vector<SettingDifference> differences) {
  differences.erase(std::remove_if(differences.begin(), differences.end(),
                                   [](const SettingDifference& d) {
                                     if (d.key == "/out_dir") return true;
                                     if (d.key != "/data" && d.key != "/pretrained") return false;
                                     return !d.a.empty() && !d.b.empty() &&
                                            lastPathPart(d.a) == lastPathPart(d.b);
                                   }),
                    differences.end());
  return differences;
}

Expected<std::vector<SettingDifference>> differingRunSettings(const std::string& run_a,
                                                              const std::string& run_b) {
  const JsonLimits limits{kMaxConfigJsonBytes, 32};
  Expected<nlohmann::json> a = readJsonFile(run_a + "/config.json", limits, Links::kRefuse);
  if (!a.ok()) return Error{a.error()};
  if (Status s = checkRunConfigJson(*a, run_a + "/config.json"); !s.ok()) return Error{s.error()};
  Expected<nlohmann::json> b = readJsonFile(run_b + "/config.json", limits, Links::kRefuse);
  if (!b.ok()) return Error{b.error()};
  if (Status s = checkRunConfigJson(*b, run_b + "/config.json"); !s.ok()) return Error{s.error()};
  return withoutLocations(differingSettings(*a, *b));
}

}  // namespace ascope
