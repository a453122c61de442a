#pragma once
// The digit-order model's settings (plain C++, no LibTorch), stored in config.json under "digits".
#include <nlohmann/json.hpp>

#include <cstdint>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// A small encoder over a CLS token and `length` digits that answers "are they in order?".
struct DigitOrderConfig {
  /// Its key in config.json (TrainingConfig::task_settings).
  static constexpr const char* kConfigKey = "digits";

  int64_t length = 8;  ///< digits per sequence
  int64_t d_model = 32;
  int64_t heads = 2;
  int64_t d_ff = 64;
  int64_t layers = 2;
  double dropout = 0.0;

  Status validate() const;
};

/// The products of one training step of `batch` sequences, forward and backward, as
/// engine/models/model_flops.h counts them.
double digitOrderStepFlops(const DigitOrderConfig& c, int64_t batch);

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DigitOrderConfig, length, d_model, heads, d_ff,
                                                layers, dropout)

}  // namespace ascope
