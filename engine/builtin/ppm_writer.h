#pragma once
// Debug output for the generated images: binary PPM (P6), viewable almost anywhere and convertible
// with any image tool. Used to eyeball the built-in datasets, not by the app.
#include <string>
#include <vector>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Writes one channel-planar sample as an interleaved RGB PPM.
Status writePpm(const std::string& path, const ImageSample& sample, int height, int width);

/// Writes `samples` side by side, `columns` per row with a 1-pixel grey gap, for a quick look at
/// many images at once.
Status writeContactSheetPpm(const std::string& path, const std::vector<ImageSample>& samples,
                            int height, int width, int columns);

}  // namespace ascope
