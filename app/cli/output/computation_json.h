#pragma once
// `explain --out FILE.json`: one head's attention as a computation, every stage with its shape
// and formula, and one cell broken down, for scripts, notebooks and slides.
#include <nlohmann/json_fwd.hpp>

#include "engine/analysis/attention_cell_breakdown.h"
#include "engine/inference/attention_explanation.h"

namespace ascope::cli {

/// {"task", "group", "layer", "head", "heads", "d_model", "d_head", "step", "weights", "input",
///  "answer", "scale", "key_offset", "keys_outside", "query_labels", "key_labels",
///  "stages": [{"name", "shape": [rows, cols], "shape_text" ("[tokens × d_head]"), "formula",
///  "values": [[…]…] (null where masked)}], "position_split": null or {"q_tokens", "q_positions",
///  "k_tokens", "k_positions"} (rows of floats), "cell": {"query", "key", "query_label",
///  "key_label", "masked", "products", "sum", "logit", "scale", "scaled", "weight",
///  "rank_before", "rank_after", "unmasked_keys", "parts": null or {"token·token", …}},
///  "largest_difference_from_recorded"}. Layers, heads, queries and keys count from 0.
nlohmann::json computationJson(const Explanation& explanation, const AttentionCellBreakdown& cell);

}  // namespace ascope::cli
