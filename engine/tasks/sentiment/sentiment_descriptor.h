#pragma once
// The sentiment task (a small encoder classifying IMDB-style reviews) as the registry lists it.
#include "engine/vocabulary/task_descriptor.h"

namespace ascope {

inline constexpr char kSentimentTaskId[] = "imdb";

TaskDescriptor sentimentTaskDescriptor();

}  // namespace ascope
