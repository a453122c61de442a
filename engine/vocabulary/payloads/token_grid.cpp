#include "engine/vocabulary/payloads/token_grid.h"

#include "engine/vocabulary/payloads/image_payload.h"

namespace ascope {

std::optional<TokenGrid> tokenGridOf(const Payloads& payloads) {
  const ImagePayload* image = payloads.find<ImagePayload>();
  if (image == nullptr || image->patch_size <= 0) return std::nullopt;
  return TokenGrid{image->grid_rows, image->grid_cols, static_cast<double>(image->patch_size)};
}

}  // namespace ascope
