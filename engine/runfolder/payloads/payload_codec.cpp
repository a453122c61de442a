#include "engine/runfolder/payloads/payload_codec.h"

namespace ascope {

const std::vector<PayloadCodec>& payloadCodecs() {
  static const std::vector<PayloadCodec> codecs = {imagePayloadCodec(), decodingPayloadCodec(),
                                                   textAlignmentCodec()};
  return codecs;
}

const PayloadCodec* findPayloadCodec(std::string_view kind) {
  for (const PayloadCodec& codec : payloadCodecs()) {
    if (codec.kind == kind) return &codec;
  }
  return nullptr;
}

void encodePayloads(const Payloads& payloads, nlohmann::json& object) {
  for (const std::shared_ptr<const Payload>& payload : payloads.all()) {
    if (const PayloadCodec* codec = findPayloadCodec(payload->kind())) {
      codec->encode(*payload, object);
    }
  }
}

Payloads decodePayloads(const nlohmann::json& object, const MsgpackFields& fields) {
  Payloads payloads;
  for (const PayloadCodec& codec : payloadCodecs()) payloads.put(codec.decode(object, fields));
  return payloads;
}

}  // namespace ascope
