#pragma once
// The translation task (an encoder-decoder, English→Italian by default) as the registry lists it.
#include "engine/vocabulary/task_descriptor.h"

namespace ascope {

inline constexpr char kTranslationTaskId[] = "translate";

TaskDescriptor translationTaskDescriptor();

}  // namespace ascope
