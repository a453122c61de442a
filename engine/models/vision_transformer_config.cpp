#include "engine/models/vision_transformer_config.h"

#include <algorithm>

#include "engine/models/model_config_bounds.h"
#include "engine/vocabulary/config_checks.h"

namespace ascope {

Status VisionTransformerConfig::validate() const {
  using namespace config_checks;
  using namespace model_config_bounds;
  Status s = firstError(
      {inRange("image_size", image_size, 1, kMaxImageSide), inRange("channels", channels, 1, 16),
       inRange("patch_size", patch_size, 1, kMaxImageSide),
       inRange("num_classes", num_classes, 2, kMaxClasses), inRange("hidden", hidden, 1, kMaxWidth),
       inRange("layers", layers, 1, kMaxLayers), inRange("heads", heads, 1, kMaxHeads),
       inRange("mlp_dim", mlp_dim, 1, kMaxFeedForward), probability("dropout", dropout),
       oneOf("activation", activation, "relu", "gelu"), oneOf("pooling", pooling, "cls", "mean")});
  if (!s.ok()) return s;
  if (image_size % patch_size != 0) {
    return Error{"patch_size (" + std::to_string(patch_size) + ") must divide image_size (" +
                 std::to_string(image_size) + ")"};
  }
  return divisible("hidden", hidden, "heads", heads);
}

}  // namespace ascope
