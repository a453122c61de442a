#pragma once
// How a sequence was generated token by token: at each step the most probable next tokens, and
// what the decoder was fed. The Decoding dock steps through it.
#include <string>
#include <utility>
#include <vector>

#include "engine/vocabulary/payloads/payload.h"

namespace ascope {

/// One step of decoding: the most probable next tokens, best first.
struct DecodingStep {
  std::vector<std::pair<std::string, double>> top;  ///< (token, probability), k of them
};

struct DecodingPayload : Payload {
  static constexpr const char* kKind = "decoding";
  const char* kind() const override { return kKind; }

  /// Step i fed row i of the decoder groups and chose row_predictions[i] among `steps[i].top`.
  std::vector<DecodingStep> steps;
  /// Whether row i + 1 was fed the prediction of row i (greedy decoding: an asked sentence) or
  /// the reference (teacher forcing: a probe of the timeline, so every stored step of a sample
  /// has the same rows and two steps can be compared cell by cell).
  bool fed_reference = false;
};

}  // namespace ascope
