#include "app/gui/views/payloads/attention_payload_conversions.h"

namespace ascope {

const std::vector<AttentionPayloadConversion>& attentionPayloadConversions() {
  static const std::vector<AttentionPayloadConversion> conversions = {
      imageAttentionConversion(), decodingAttentionConversion(), beamAttentionConversion()};
  return conversions;
}

}  // namespace ascope
