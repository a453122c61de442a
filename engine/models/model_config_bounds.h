#pragma once
// The largest model settings any model config accepts.
#include <cstdint>

namespace ascope::model_config_bounds {

// Upper bounds far above any model this program trains (the GUI's fields stop well below them),
// low enough that a hand-edited config.json cannot overflow a size product or ask for terabytes.
constexpr int64_t kMaxImageSide = 1024;
constexpr int64_t kMaxClasses = 100'000;
constexpr int64_t kMaxWidth = 16'384;
constexpr int64_t kMaxFeedForward = 65'536;
constexpr int64_t kMaxLayers = 256;
constexpr int64_t kMaxHeads = 256;
constexpr int64_t kMaxVocabulary = 10'000'000;
constexpr int64_t kMaxSequence = 100'000;

}  // namespace ascope::model_config_bounds
