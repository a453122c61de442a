#pragma once
// Ask a trained run's checkpoint about the user's own input: the GUI's "Try it" and the CLI's
// `infer`. Plain C++ (the .cpp uses LibTorch; no Qt header may appear next to it). Every function
// here does tensor work: call them off the GUI thread (the GUI uses QtConcurrent).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Which checkpoint of a run answers when it has both.
/// The other one answers when the chosen one does not load (InferenceAnswer::note says so).
enum class CheckpointChoice {
  kNewest,  ///< last.pt, else best.pt: "Try it" during training asks the model as it is now
  kBest,    ///< best.pt, else last.pt: `infer` on a finished run wants its best validation
};

/// One question for the model: a review or sentence, or an image.
struct InferenceRequest {
  std::string run_dir;
  std::string device = "cpu";  ///< "cpu" or "cuda"; a checkpoint loads on either
  CheckpointChoice checkpoint = CheckpointChoice::kNewest;
  std::string text;
  /// An image file (PNG/JPEG with OpenCV, binary PPM in any build), decoded at the model's input
  /// size; used when `text` is empty. Else the pixels below.
  std::string image_file;
  int image_width = 0;  ///< used when `text` and `image_file` are empty
  int image_height = 0;
  std::vector<std::uint8_t> image_planar;  ///< channel-planar RGB (all R, then G, then B)
  /// Image runs: -1 asks about the image as it is; a patch (from 0, row by row, as the attention
  /// labels the patches) asks about it with that patch filled with the pixel the model's
  /// normalisation reads as 0, once the image is at the model's input size. Half of a minimal pair
  /// (engine/analysis/minimal_pair.h): ask with -1, then with the patch. An error names a patch
  /// outside the model's grid and the range, and refuses one for a run that reads text.
  int occluded_patch = -1;
  /// Translation: > 0 decodes with a beam this wide (1 greedy); 0 as the run's settings say.
  int beam_width = 0;
};

struct InferenceAnswer {
  std::string task;        ///< the run's task id
  std::string checkpoint;  ///< file the weights came from
  std::int64_t step = 0;   ///< optimizer steps of that checkpoint
  std::string label;       ///< class, sentiment or translation
  double probability = 0;  ///< classification only, at `temperature`
  /// Classification: every class and its probability (at `temperature`). Beam search: every
  /// finished hypothesis and its length-normalised log-probability, best first.
  std::vector<std::pair<std::string, double>> ranking;
  /// Classification: the run's calibration temperature the probabilities are shown at (1 when
  /// it has none for these weights), where it came from, and a refused calibration.json.
  double temperature = 1;
  std::string calibration;
  std::string calibration_warning;
  bool calibration_for_other_weights = false;  ///< RunTemperature::for_other_weights
  /// One line for a person when the preferred checkpoint did not load and the other answered
  /// (names both files); "" otherwise.
  std::string note;
  /// The attention of the asked input (labels are its own tokens or patches); `step` is the
  /// checkpoint's, `sample_index` -1.
  AttentionSnapshot attention;
};

/// The checkpoint of `run_dir` that `choice` picks; "" when there is none.
std::string chooseCheckpoint(const std::string& run_dir, CheckpointChoice choice);

/// Loads the run's task and the checkpoint the request picks on its device and answers it.
Expected<InferenceAnswer> inferFromCheckpoint(const InferenceRequest& request);

/// The positional encoding stored in the run's newest checkpoint (cheap: no dataset needed).
Expected<PositionalEncodingSnapshot> positionalEncodingFromCheckpoint(const std::string& run_dir);

}  // namespace ascope
