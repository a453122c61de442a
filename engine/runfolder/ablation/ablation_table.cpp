#include "engine/runfolder/ablation/ablation_table.h"

#include <algorithm>

namespace ascope {

std::vector<std::string> AblationTable::figureKeys() const {
  std::vector<std::string> keys;
  for (const Figure& f : baseline.figures) keys.push_back(f.key);
  return keys;
}

std::optional<double> AblationTable::deltaFigure(const AblationRow& row,
                                                 const std::string& key) const {
  const std::optional<double> value = row.figures.get(key);
  const std::optional<double> base = baseline.figures.get(key);
  if (!value || !base) return std::nullopt;
  return *value - *base;
}

const AblationRow* AblationTable::find(const std::string& group, int layer, int head,
                                       const std::string& ablation) const {
  for (const AblationRow& row : rows) {
    if (row.group == group && row.layer == layer && row.head == head && row.ablation == ablation) {
      return &row;
    }
  }
  return nullptr;
}

std::vector<std::string> AblationTable::groups() const {
  std::vector<std::string> names;
  for (const AblationRow& row : rows) {
    if (std::find(names.begin(), names.end(), row.group) == names.end()) {
      names.push_back(row.group);
    }
  }
  return names;
}

}  // namespace ascope
