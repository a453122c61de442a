#pragma once
// Where a snapshot's tokens lie when its input was an image cut into patches: the grid of the
// tokens after the first (a ViT's CLS) and the side of a patch in pixels. The one place outside a
// kind's own files that knows which payload holds it, so the head statistics (the attention's
// distance in pixels) name no payload kind.
#include <optional>

#include "engine/vocabulary/payloads/payload.h"

namespace ascope {

struct TokenGrid {
  int rows = 0;
  int cols = 0;
  double cell_pixels = 0;  ///< the side of a patch
};

/// The grid of `payloads`' image, when it has a patch size; nullopt for a text input. The grid
/// comes from a file and may not account for the tokens: the caller checks rows · cols.
std::optional<TokenGrid> tokenGridOf(const Payloads& payloads);

}  // namespace ascope
