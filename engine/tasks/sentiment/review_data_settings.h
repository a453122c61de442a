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
  /// Share of a training review's words left out at each step (word_dropout.h); 0: none.
  double word_dropout = 0.0;
  /// 0: none. Else every pair of neighbouring words seen at least this many times in the training
  /// reviews gets a row of its own in the model's word-pair table (instead of text.bigram_buckets'
  /// hashed buckets, which one pair shares with others).
  int pair_min_freq = 0;

  Status validate() const;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReviewDataSettings, min_freq, word_dropout,
                                                pair_min_freq)

}  // namespace ascope
