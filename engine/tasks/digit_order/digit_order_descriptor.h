#pragma once
// The digit-order task as the registry lists it: "are these digits in order?", on generated
// sequences, with a model of its own. A small task that shows how previous-token heads arise: to
// find the one pair of neighbours out of order, each digit has to look at the one before it.
#include "engine/vocabulary/task_descriptor.h"

namespace ascope {

inline constexpr char kDigitOrderTaskId[] = "digits";

TaskDescriptor digitOrderTaskDescriptor();

}  // namespace ascope
