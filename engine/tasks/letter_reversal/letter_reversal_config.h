#pragma once
// The letter-reversal model's settings (plain C++, no LibTorch), stored in config.json under
// "reversal".
#include <nlohmann/json.hpp>

#include <cstdint>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// A small encoder that reads a word and an END mark and writes, at each position, the letter the
/// word has at the mirrored one.
struct LetterReversalConfig {
  /// Its key in config.json (TrainingConfig::task_settings).
  static constexpr const char* kConfigKey = "reversal";

  int64_t max_letters = 8;  ///< the longest word (the shortest has 3 letters)
  int64_t d_model = 64;
  int64_t heads = 4;
  int64_t d_ff = 128;
  int64_t layers = 2;
  double dropout = 0.0;

  Status validate() const;
};

/// The products of one training step of `batch` words, forward and backward, as
/// engine/models/model_flops.h counts them.
double letterReversalStepFlops(const LetterReversalConfig& c, int64_t batch);

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LetterReversalConfig, max_letters, d_model, heads,
                                                d_ff, layers, dropout)

}  // namespace ascope
