#include "app/cli/output/json_output_file.h"

#include <nlohmann/json.hpp>

namespace ascope::cli {

Status writeJsonOutputFile(const std::string& path, const nlohmann::json& json,
                           const std::vector<CommandInput>& inputs) {
  return writeOutputFile(
      path, json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", inputs);
}

}  // namespace ascope::cli
