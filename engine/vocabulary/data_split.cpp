#include "engine/vocabulary/data_split.h"

namespace ascope {

const char* splitName(DataSplit split) {
  switch (split) {
    case DataSplit::kTrain:
      return "train";
    case DataSplit::kValidation:
      return "validation";
    case DataSplit::kTest:
      return "test";
  }
  return "test";
}

std::optional<DataSplit> parseSplit(std::string_view name) {
  for (DataSplit split : {DataSplit::kTrain, DataSplit::kValidation, DataSplit::kTest}) {
    if (name == splitName(split)) return split;
  }
  return std::nullopt;
}

}  // namespace ascope
