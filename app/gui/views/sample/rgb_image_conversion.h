#pragma once
// Engine images (ImageBuffer) as the widgets' RgbImage.
#include "engine/vocabulary/events.h"
#include "widgets/images/rgb_image.h"

namespace ascope {

/// Channel-planar bytes in both: a plane-sized buffer is grey, three planes are RGB.
RgbImage toRgbImage(const ImageBuffer& image);

}  // namespace ascope
