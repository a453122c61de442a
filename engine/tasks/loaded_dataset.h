#pragma once
// What the task factories share when they read a dataset.
#include <string>
#include <utility>
#include <vector>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

/// The run trains on the generated data of its task rather than on files.
inline bool usesBuiltinData(const TrainingConfig& c) {
  return c.data.empty() || c.data == "builtin";
}

/// The dataset of a successful load, its warnings appended to `warnings` (when set).
template <typename Dataset>
Expected<Dataset> takeLoaded(Expected<Loaded<Dataset>> loaded, std::vector<std::string>* warnings) {
  if (!loaded.ok()) return Error{loaded.error()};
  if (warnings != nullptr) {
    warnings->insert(warnings->end(), loaded->warnings.begin(), loaded->warnings.end());
  }
  return std::move(loaded->dataset);
}

}  // namespace ascope
