#pragma once
// The one entry point for image data: CIFAR-10 binary batches when `path` is cifar-10-batches-bin/
// (or its parent, or any folder holding data_batch_*.bin / test_batch.bin), an image folder
// otherwise. What is skipped and what stops the load is listed in cifar10_binary_reader.h and
// image_folder_reader.h.
#include <string>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/image_load_options.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

Expected<Loaded<ImageDataset>> loadImageDataset(const std::string& path,
                                                const ImageLoadOptions& options = {});

}  // namespace ascope
