#pragma once
// Tests read a snapshot's or sample's payloads as values: what a task put there, or nothing.
#include <vector>

#include "engine/vocabulary/attention_snapshot.h"

namespace ascope::testing {

/// The decoding steps a snapshot carries; none without a transcript.
inline std::vector<DecodingStep> decodingOf(const AttentionSnapshot& s) {
  const DecodingPayload* t = s.payloads.find<DecodingPayload>();
  return t ? t->steps : std::vector<DecodingStep>{};
}

/// The image payload of a snapshot or sample; an empty one when it has none.
inline ImagePayload imageOf(const Payloads& payloads) {
  const ImagePayload* image = payloads.find<ImagePayload>();
  return image ? *image : ImagePayload{};
}

}  // namespace ascope::testing
