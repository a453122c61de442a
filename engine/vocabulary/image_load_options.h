#pragma once
#include <cstdint>

namespace ascope {

/// How image datasets are read. CIFAR-10 batches are always 32x32 and ignore the size.
struct ImageLoadOptions {
  /// Height every decoded image is resized to.
  int height = 32;
  /// Width every decoded image is resized to.
  int width = 32;
  /// Seeds the shuffle of an image folder that has no train/ and test/ of its own.
  std::uint64_t seed = 42;
  /// Share of such a folder that becomes the training split; the rest is test.
  double train_fraction = 0.9;
};

}  // namespace ascope
