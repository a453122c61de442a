// ImagePayload in `infer --attention`'s JSON: the patch grid, so that a script can place each
// patch label (a bare index) in the image. The pixels are the input file's own: not repeated.
#include <nlohmann/json.hpp>

#include "app/cli/output/payloads/payload_json_writers.h"
#include "engine/vocabulary/payloads/image_payload.h"

namespace ascope::cli {

PayloadJsonWriter imagePayloadJson() {
  return {ImagePayload::kKind, [](nlohmann::json& out, const Payload* payload) {
            if (payload == nullptr) return;
            const auto& image = static_cast<const ImagePayload&>(*payload);
            if (image.grid_rows <= 0) return;
            out["patch_size"] = image.patch_size;
            out["grid_rows"] = image.grid_rows;
            out["grid_cols"] = image.grid_cols;
          }};
}

}  // namespace ascope::cli
