#pragma once
// The image-classification task (a ViT on CIFAR-10, an image folder or the built-in shapes) as the
// registry lists it.
#include "engine/vocabulary/task_descriptor.h"

namespace ascope {

inline constexpr char kImageClassificationTaskId[] = "vit";

TaskDescriptor imageClassificationTaskDescriptor();

}  // namespace ascope
