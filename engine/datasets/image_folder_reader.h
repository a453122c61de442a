#pragma once
// An image folder: one subfolder per class, the sorted subfolder names being the class names, each
// holding PNG or JPEG files (other files are ignored). With train/ and test/ subfolders, each laid
// out that way, those are the splits; otherwise a seeded 90/10 split of everything. Images are
// decoded with OpenCV (BGR, turned into RGB planes) and resized to the requested size: INTER_AREA
// when shrinking, INTER_LINEAR when enlarging.
//
// Skipped and counted: an image that fails to decode, and one whose header announces more than
// 16384 pixels per side or 64 M pixels (engine/imaging/image_header.h; the first few file names are
// listed).
// A class folder without images is kept (its label stays) and reported in the warnings.
// Stops the load: no class subfolders, a test/ class that train/ lacks, no image decoded at all, a
// size outside 1..4096, and a build without OpenCV.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/attention_snapshot.h"  // ImageBuffer
#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/image_load_options.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

class ImageFolderReader {
 public:
  /// False when this build has no OpenCV and so cannot decode image files.
  static bool canDecode();

  static Expected<Loaded<ImageDataset>> read(const std::string& path,
                                             const ImageLoadOptions& options = {});

  /// One image file as channel-planar RGB bytes of height x width: binary PPM in every build,
  /// PNG/JPEG/BMP/GIF with OpenCV. Refused before decoding: anything but a regular file, a file
  /// over 256 MiB, a header announcing more than 16384 pixels per side or 64 M pixels.
  static Expected<std::vector<std::uint8_t>> decode(const std::string& file, int height, int width);

  /// The same at the image's own size, for a processor that resizes by its own rule (a
  /// pretrained ViT's Pillow-exact bilinear resize).
  static Expected<ImageBuffer> decodeAtOwnSize(const std::string& file);
};

}  // namespace ascope
