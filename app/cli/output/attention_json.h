#pragma once
// `infer --attention FILE.json`: the asked input's attention for scripts and notebooks, one file
// with every group, layer and head, labelled with the input's own tokens (or patches).
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "engine/inference/checkpoint_inference.h"
#include "engine/vocabulary/expected.h"

namespace ascope::cli {

/// {"task", "checkpoint", "step", "input", "label", "groups": [{"name", "layers", "heads",
/// "causal", "row_labels", "col_labels", "row_predictions", "maps": [{"layer", "head",
/// "weights": [[row…]…]}]}], "decoding": [{"row", "top": [{"token", "probability"}]}]}, plus
/// "patch_size", "grid_rows", "grid_cols" when the input was an image.
nlohmann::json attentionJson(const InferenceAnswer& answer, const std::string& input);

/// {"groups": […], "decoding": […]} of `snapshot` as attentionJson writes them, plus the patch
/// grid of an image.
nlohmann::json attentionSnapshotJson(const AttentionSnapshot& snapshot);

/// Refuses, before any model is loaded, a path whose folder is missing or not writable, or that
/// is a folder itself; the error names the path.
Status checkWritableFile(const std::string& path);

/// Written atomically: a reader never sees half a file, and a failed write keeps the old one.
Status writeAttentionJson(const std::string& path, const InferenceAnswer& answer,
                          const std::string& input);

}  // namespace ascope::cli
