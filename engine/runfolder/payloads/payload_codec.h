#pragma once
// How each kind of payload (engine/vocabulary/payloads) is kept in a run folder's snapshot files:
// the keys it writes into a snapshot's or a sample's MessagePack map and how it reads them back,
// checked as the rest of the file is. One codec per kind, found by the kind's name; a kind
// without a codec is not stored.
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/runfolder/payloads/msgpack_fields.h"
#include "engine/vocabulary/attention_snapshot.h"

namespace ascope {

struct PayloadCodec {
  std::string kind;  ///< Payload::kind() of what it stores
  /// Writes `payload` (of this kind) into `object`, under keys no other codec uses.
  std::function<void(const Payload& payload, nlohmann::json& object)> encode;
  /// The payload `object` holds, or null when it holds none of this kind (an older file, another
  /// task). Throws FieldError (MsgpackFields::refuse) for a damaged one.
  std::function<std::shared_ptr<const Payload>(const nlohmann::json& object,
                                               const MsgpackFields& fields)>
      decode;
  /// What a decoded payload must agree with in its snapshot's groups; "" when it does. May be
  /// empty (nothing to check).
  std::function<std::string(const Payload& payload, const std::vector<AttentionGroup>& groups)>
      check;
};

/// Every kind's codec, in the order payloads are read.
const std::vector<PayloadCodec>& payloadCodecs();
/// The codec of `kind`; null when it has none.
const PayloadCodec* findPayloadCodec(std::string_view kind);

/// Each of `payloads` written into `object` by its codec (kinds without one are left out).
void encodePayloads(const Payloads& payloads, nlohmann::json& object);
/// Every payload `object` holds. Throws FieldError.
Payloads decodePayloads(const nlohmann::json& object, const MsgpackFields& fields);

/// The codecs of the built-in kinds (one file each).
PayloadCodec imagePayloadCodec();
PayloadCodec decodingPayloadCodec();
PayloadCodec textAlignmentCodec();

}  // namespace ascope
