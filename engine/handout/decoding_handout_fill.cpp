// DecodingPayload in the handout: each decoded position's top tokens, and whether the decoder was
// fed the reference, for the page's decoding view.
#include "engine/handout/handout_payload_fills.h"
#include "engine/vocabulary/payloads/decoding_payload.h"

namespace ascope {

HandoutPayloadFill decodingHandoutFill() {
  return {DecodingPayload::kKind, [](HandoutProbe& probe, const Payload& payload) {
            const auto& decoding = static_cast<const DecodingPayload&>(payload);
            for (const DecodingStep& step : decoding.steps) probe.decoding.push_back({step.top});
            probe.decoder_fed_reference = decoding.fed_reference;
          }};
}

}  // namespace ascope
