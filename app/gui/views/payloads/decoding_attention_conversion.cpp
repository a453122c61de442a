// DecodingPayload on the attention panel's data: each decoded position's top tokens, for the
// Decoding dock, and whether the decoder was fed the reference.
#include "app/gui/views/payloads/attention_payload_conversions.h"
#include "engine/vocabulary/payloads/decoding_payload.h"

namespace ascope {

AttentionPayloadConversion decodingAttentionConversion() {
  return {DecodingPayload::kKind, [](AttentionPlotData& data, const Payload& payload) {
            const auto& transcript = static_cast<const DecodingPayload&>(payload);
            for (const DecodingStep& step : transcript.steps) {
              DecodingCandidates candidates;
              for (const auto& [token, probability] : step.top) {
                candidates.tokens.push_back(QString::fromStdString(token));
                candidates.probabilities.push_back(probability);
              }
              data.decoding.push_back(std::move(candidates));
            }
            data.decoder_fed_reference = transcript.fed_reference;
          }};
}

}  // namespace ascope
