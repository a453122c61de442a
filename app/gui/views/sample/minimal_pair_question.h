#pragma once
// A minimal pair asked of a run's checkpoint: the model answers both inputs (a text and its
// variant, or an image and the same image with one patch occluded), the engine lines their
// attention up head by head (engine/analysis/minimal_pair.h), and the result becomes what the
// window draws (MinimalPairView). Tensor work: call on a worker thread, never on the GUI thread.
#include <QString>

#include "engine/inference/checkpoint_inference.h"
#include "engine/vocabulary/expected.h"
#include "widgets/attention/minimal_pair_view.h"

namespace ascope {

struct MinimalPairReply {
  InferenceAnswer a;  ///< the first input's answer, as a single Try it question gives it
  MinimalPairPlotData pair;
};

/// "A | B" split into its two sides, trimmed; nullopt when `text` is no pair (no " | ", or a
/// side empty).
std::optional<std::pair<QString, QString>> splitPair(const QString& text);

/// Asks `request` (input A) and the same with `text_b`, or with `occluded_patch` (>= 0) for an
/// image, and compares them. Errors name the side that failed or say why the two cannot be
/// compared.
Expected<MinimalPairReply> askMinimalPair(const InferenceRequest& request,
                                          const std::string& text_b, int occluded_patch = -1);

}  // namespace ascope
