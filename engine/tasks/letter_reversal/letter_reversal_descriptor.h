#pragma once
// The letter-reversal task as the registry lists it. Plain C++: Qt code and tests include this.
#include "engine/vocabulary/task_descriptor.h"

namespace ascope {

inline constexpr char kLetterReversalTaskId[] = "reverse";
/// Its figure: the mean edit distance between an answer and the reversed word.
inline constexpr char kEditDistanceKey[] = "edit_distance";

TaskDescriptor letterReversalTaskDescriptor();

}  // namespace ascope
