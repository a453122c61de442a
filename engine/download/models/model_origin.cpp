#include "engine/download/models/model_origin.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "engine/core/json_file.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

/// Three short strings; anything larger was not written by writeModelOrigin.
constexpr JsonLimits kOriginLimits{64 * 1024, 4};

std::string pathIn(const std::string& folder) {
  return (fs::path(folder) / kModelOriginFileName).string();
}

}  // namespace

Status writeModelOrigin(const std::string& folder, const ModelOrigin& origin) {
  const nlohmann::json record = {
      {"id", origin.id}, {"endpoint", origin.endpoint}, {"commit", origin.commit}};
  return writeJsonFile(pathIn(folder), record);
}

Expected<std::optional<ModelOrigin>> readModelOrigin(const std::string& folder) {
  const std::string path = pathIn(folder);
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return std::optional<ModelOrigin>();
  Expected<nlohmann::json> record = readJsonFile(path, kOriginLimits);
  if (!record.ok()) return Error{record.error()};
  if (!record->is_object()) return Error{path + ": not a JSON object"};
  ModelOrigin origin;
  for (auto [key, field] : {std::pair{"id", &origin.id}, std::pair{"endpoint", &origin.endpoint},
                            std::pair{"commit", &origin.commit}}) {
    const auto value = record->find(key);
    if (value == record->end()) continue;
    if (!value->is_string()) return Error{path + ": \"" + key + "\" is not a string"};
    *field = value->get<std::string>();
  }
  if (origin.id.empty()) return Error{path + ": no \"id\""};
  return std::optional<ModelOrigin>(origin);
}

}  // namespace ascope
