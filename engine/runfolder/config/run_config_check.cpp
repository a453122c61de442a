#include "engine/runfolder/config/run_config_check.h"

namespace ascope {

Status checkRunConfigJson(const nlohmann::json& config, const std::string& path) {
  if (!config.is_object()) {
    return Error{path +
                 ": not a run's settings (a JSON object with \"task\", \"data\", …) but of "
                 "type " +
                 std::string(config.type_name())};
  }
  if (config.contains("task") && config.at("task").is_string()) return {};
  if (config.contains("model_type") || config.contains("architectures")) {
    const std::string type =
        config.contains("model_type") && config.at("model_type").is_string()
            ? " (\"model_type\": \"" + config.at("model_type").get<std::string>() + "\")"
            : std::string();
    return Error{path + " belongs to a pretrained model folder" + type +
                 ", not to a run: inspect it with File → Inspect pretrained model… "
                 "(attentionscope-cli inspect), or fine-tune it with --model"};
  }
  if (config.contains("task")) {
    return Error{path + ": \"task\" must be a task's id such as \"vit\", got " +
                 config.at("task").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
  }
  return Error{path + ": not a run's settings (it has no \"task\")"};
}

}  // namespace ascope
