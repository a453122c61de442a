#include "engine/vocabulary/task_descriptor.h"

#include <algorithm>

namespace ascope {

std::vector<PresetInfo> laptopTinySeedPresets() {
  return {{"laptop", "minutes on a CPU"},
          {"tiny", "seconds, a quick look"},
          {"seed", "reference model (GPU)"}};
}

MetricInfo TaskDescriptor::metric(const std::string& key) const {
  const MetricInfo* declared = findMetric(metrics, key);
  return declared ? *declared : undeclaredMetric(key);
}

std::vector<MetricInfo> TaskDescriptor::trackedMetrics() const {
  std::vector<MetricInfo> out;
  for (const MetricInfo& m : metrics) {
    if (m.tracked) out.push_back(m);
  }
  return out;
}

MetricInfo TaskDescriptor::headline() const {
  for (const MetricInfo& m : metrics) {
    if (m.headline) return m;
  }
  MetricInfo accuracy;
  accuracy.key = "accuracy";
  accuracy.title = accuracy_name.empty() ? "accuracy" : accuracy_name;
  accuracy.description = "share of answers that are right";
  return accuracy;
}

std::optional<double> TaskDescriptor::headlineValue(double accuracy, const Figures& figures) const {
  const MetricInfo h = headline();
  return h.key == "accuracy" && !findMetric(metrics, "accuracy") ? std::optional<double>(accuracy)
                                                                 : figures.get(h.key);
}

bool TaskDescriptor::showsShapeField(const std::string& field) const {
  return std::find(shape_fields.begin(), shape_fields.end(), field) != shape_fields.end();
}

bool TaskDescriptor::hasPreset(const std::string& name) const {
  for (const PresetInfo& p : presets) {
    if (p.name == name) return true;
  }
  return false;
}

std::string TaskDescriptor::defaultPreset(bool gpu) const {
  // Without a GPU the reference configurations take hours; laptop is the sensible default there.
  const char* preferred = gpu ? "seed" : "laptop";
  if (hasPreset(preferred)) return preferred;
  return presets.empty() ? std::string() : presets.front().name;
}

std::string TaskDescriptor::defaultPreset(bool gpu, bool pretrained) const {
  if (pretrained && !fine_tune_preset.empty()) return fine_tune_preset;
  return defaultPreset(gpu);
}

std::string joinAsList(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

std::string TaskDescriptor::presetList() const {
  std::vector<std::string> names;
  for (const PresetInfo& p : presets) names.push_back(p.name);
  return joinAsList(names);
}

}  // namespace ascope
