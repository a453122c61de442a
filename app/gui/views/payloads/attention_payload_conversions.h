#pragma once
// How a snapshot's payloads (engine/vocabulary/payloads) reach the attention panel's data: one
// conversion per kind, found by the kind's name, as the Sample dock's views are
// (sample_payload_views.h). toAttentionPlotData applies the conversion of each payload a snapshot
// carries and names no kind itself; a kind without one is simply not drawn there.
#include <functional>
#include <string>
#include <vector>

#include "engine/vocabulary/payloads/payload.h"
#include "widgets/attention/attention_plot_data.h"

namespace ascope {

struct AttentionPayloadConversion {
  std::string kind;  ///< Payload::kind() it converts
  /// Adds what `payload` (of `kind`) shows to `data`.
  std::function<void(AttentionPlotData& data, const Payload& payload)> apply;
};

/// Every kind's conversion.
const std::vector<AttentionPayloadConversion>& attentionPayloadConversions();

/// The conversions of the built-in kinds (one file each): an image with its patch grid (the CLS
/// overlay), a decoding transcript (the Decoding dock's top-k), a beam search (its tree).
AttentionPayloadConversion imageAttentionConversion();
AttentionPayloadConversion decodingAttentionConversion();
AttentionPayloadConversion beamAttentionConversion();

}  // namespace ascope
