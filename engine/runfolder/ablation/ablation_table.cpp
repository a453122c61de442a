#include "engine/runfolder/ablation/ablation_table.h"

#include <algorithm>

namespace ascope {

std::optional<double> AblationTable::deltaBleu(const AblationRow& row) const {
  if (!row.bleu || !baseline.bleu) return std::nullopt;
  return *row.bleu - *baseline.bleu;
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
