#pragma once
// Built-in image classification data: one coloured shape per image on a textured background,
// ten classes told apart by shape and texture alone. Small enough to train a ViT on a CPU in
// minutes, and the object occupies only some patches, so the attention maps have something to show.
#include <cstdint>

#include "engine/vocabulary/datasets.h"

namespace ascope {

struct ShapeImagesOptions {
  /// Training images; classes are balanced (equal counts when divisible by 10).
  int train_count = 5000;
  /// Test images, drawn after the training ones from the same stream.
  int test_count = 1000;
  /// The same seed gives byte-identical images on every machine.
  std::uint64_t seed = 1;
  /// Width and height in pixels; clamped to [16, 256]. Shapes scale with it.
  int image_size = 32;
};

/// Images are channel-planar RGB (see ImageSample); labels index `class_names`, which follow
/// ShapeKind: circle, square, triangle, plus, ring, diamond, horizontal bars, vertical bars,
/// checker, star.
ImageDataset generateShapeImages(const ShapeImagesOptions& options);

}  // namespace ascope
