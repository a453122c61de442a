// ImagePayload in a snapshot file: "image_width", "image_height", the "image" bytes
// (channel-planar RGB), "patch_size", "grid_rows" and "grid_cols" — the keys snapshots have
// always had, so files of every version read alike.
#include "engine/runfolder/payloads/payload_codec.h"

namespace ascope {

PayloadCodec imagePayloadCodec() {
  PayloadCodec codec;
  codec.kind = ImagePayload::kKind;
  codec.encode = [](const Payload& payload, nlohmann::json& object) {
    const auto& p = static_cast<const ImagePayload&>(payload);
    object["image_width"] = p.image.width;
    object["image_height"] = p.image.height;
    object["image"] = nlohmann::json::binary(p.image.pixels);
    object["patch_size"] = p.patch_size;
    object["grid_rows"] = p.grid_rows;
    object["grid_cols"] = p.grid_cols;
  };
  codec.decode = [](const nlohmann::json& object,
                    const MsgpackFields& fields) -> std::shared_ptr<const Payload> {
    ImagePayload p;
    p.image = fields.image(object, "");
    // Files written before payloads carried these keys, empty, for every task.
    if (p.image.width == 0 || p.image.height == 0 || p.image.pixels.empty()) return nullptr;
    p.patch_size = fields.optionalInteger(object, "patch_size", MsgpackFields::kMaxSide);
    p.grid_rows = fields.optionalInteger(object, "grid_rows", MsgpackFields::kMaxSide);
    p.grid_cols = fields.optionalInteger(object, "grid_cols", MsgpackFields::kMaxSide);
    return makePayload(std::move(p));
  };
  return codec;
}

}  // namespace ascope
