#pragma once
// `infer --attention FILE.json`: the asked input's attention for scripts and notebooks, one file
// with every group, layer and head, labelled with the input's own tokens (or patches).
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

#include "engine/core/output_file.h"
#include "engine/inference/checkpoint_inference.h"
#include "engine/vocabulary/expected.h"

namespace ascope::cli {

/// {"task", "checkpoint", "step", "input", "label", "groups": [{"name", "layers", "heads",
/// "causal", "row_labels", "col_labels", "row_predictions", "maps": [{"layer", "head",
/// "weights": [[row…]…]}]}], "decoding": [{"row", "top": [{"token", "probability"}]}]}, plus
/// "patch_size", "grid_rows", "grid_cols" when the input was an image.
nlohmann::json attentionJson(const InferenceAnswer& answer, const std::string& input);

/// `map` as rows of weights: [[row 0…], [row 1…], …]; NaN (a masked cell) is written as null.
nlohmann::json weightRowsJson(const AttentionMap& map);

/// {"groups": […], "decoding": […]} of `snapshot` as attentionJson writes them, plus the patch
/// grid of an image.
nlohmann::json attentionSnapshotJson(const AttentionSnapshot& snapshot);

/// Written by writeJsonOutputFile (app/cli/output/json_output_file.h): checked against the
/// command's `inputs`, atomically, never over a device, FIFO or link.
Status writeAttentionJson(const std::string& path, const InferenceAnswer& answer,
                          const std::string& input, const std::vector<CommandInput>& inputs);

}  // namespace ascope::cli
