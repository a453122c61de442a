#pragma once
// Bilinear resizing of 8-bit channel-planar images exactly as Pillow does it (Image.resize with
// BILINEAR), because that is what Hugging Face image processors run: a pretrained ViT sees the
// pixels Pillow made, and a model compared with its reference must see the same ones. Pillow
// filters with a triangle widened by the scale when shrinking (so it averages, not samples),
// resizes rows first and columns second, and rounds to 8 bits in fixed point after each pass.
#include <cstdint>
#include <vector>

namespace ascope {

/// `pixels` holds `channels` planes of height × width bytes; the result holds them at
/// out_height × out_width. Sizes must be positive and `pixels` complete (checked by callers).
std::vector<std::uint8_t> resizeBilinearLikePillow(const std::vector<std::uint8_t>& pixels,
                                                   int channels, int height, int width,
                                                   int out_height, int out_width);

}  // namespace ascope
