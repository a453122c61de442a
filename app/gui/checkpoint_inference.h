#pragma once
// "Try it": run the newest checkpoint of a run on the user's own input. Plain C++ (the .cpp uses
// LibTorch; no Qt header may appear next to it). Every function here does tensor work: call them
// off the GUI thread (the GUI uses QtConcurrent).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/expected.h"

namespace ascope {

struct PositionalEncodingSnapshot;  // engine/train/events.h; kept out of this header on purpose:
                                    // Qt-side files include it (see gui_batch.h)

/// One question for the model: a review or sentence, or an image.
struct InferenceRequest {
  std::string run_dir;
  std::string text;
  int image_width = 0;  ///< used when `text` is empty
  int image_height = 0;
  std::vector<std::uint8_t> image_planar;  ///< channel-planar RGB (all R, then G, then B)
};

struct InferenceAnswer {
  std::string task;                                     ///< "vit", "imdb", "translate"
  std::string checkpoint;                               ///< file the weights came from
  std::int64_t step = 0;                                ///< optimizer steps of that checkpoint
  std::string label;                                    ///< class, sentiment or translation
  double probability = 0;                               ///< classification only
  std::vector<std::pair<std::string, double>> ranking;  ///< classification: every class
};

/// The newest checkpoint of `run_dir`: checkpoints/last.pt, else best.pt; "" when there is none.
std::string latestCheckpoint(const std::string& run_dir);

/// Loads the run's task and newest checkpoint on the CPU and answers `request`.
Expected<InferenceAnswer> inferFromCheckpoint(const InferenceRequest& request);

/// The positional encoding stored in the run's newest checkpoint (cheap: no dataset needed).
Expected<PositionalEncodingSnapshot> positionalEncodingFromCheckpoint(const std::string& run_dir);

}  // namespace ascope
