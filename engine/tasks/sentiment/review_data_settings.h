#pragma once
// How the sentiment task turns reviews into tokens (plain C++, no LibTorch), stored in config.json
// under "review_data"; runs made before kept the setting as a top-level "min_freq".
#include <nlohmann/json.hpp>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct ReviewDataSettings {
  /// Its key in config.json (TrainingConfig::task_settings).
  static constexpr const char* kConfigKey = "review_data";

  int min_freq = 2;  ///< a word seen fewer times in the training reviews is [UNK]

  Status validate() const;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReviewDataSettings, min_freq)

}  // namespace ascope
