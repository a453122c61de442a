#include "engine/handout/handout_key_settings.h"

#include <filesystem>
#include <string>

#include "engine/core/number_text.h"

namespace ascope {
namespace {

std::string fileName(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name.empty() ? path : name;
}

std::string learningRate(const OptimizationConfig& o) {
  std::string text = formatNumber(o.lr, 3) + " (" + o.optimizer + ", " + o.schedule;
  if (o.warmup_steps > 0) text += ", " + std::to_string(o.warmup_steps) + " warm-up steps";
  return text + ")";
}

}  // namespace

std::vector<HandoutSetting> keySettingsOf(const TrainingConfig& config,
                                          const TaskDescriptor* task) {
  std::vector<HandoutSetting> out;
  out.push_back({"Task", task && !task->title.empty() ? task->title : config.task});
  out.push_back(
      {"Data", config.data == "builtin" ? "built-in (generated)" : fileName(config.data)});
  out.push_back({"Preset", config.preset});
  if (!config.pretrained.empty()) out.push_back({"Pretrained model", fileName(config.pretrained)});
  out.push_back({"Length", config.max_steps > 0 ? std::to_string(config.max_steps) + " steps"
                                                : std::to_string(config.epochs) + " epochs"});
  out.push_back({"Batch size", std::to_string(config.batch_size)});
  out.push_back({"Learning rate", learningRate(config.optimization)});
  out.push_back({"Seed", std::to_string(config.seed)});
  if (task != nullptr && task->model_shape && config.pretrained.empty()) {
    const ModelShape shape = task->model_shape(config);
    if (shape.layers > 0) {
      out.push_back({"Layers", std::to_string(shape.layers)});
      out.push_back({"Heads", std::to_string(shape.heads)});
      out.push_back({"Width (" + task->width_label + ")", std::to_string(shape.d_model)});
      out.push_back({"Feed-forward (" + task->ff_label + ")", std::to_string(shape.d_ff)});
      if (task->showsShapeField("patch_size")) {
        out.push_back({"Patch size", std::to_string(shape.patch_size) + " px"});
      }
    }
  }
  return out;
}

}  // namespace ascope
