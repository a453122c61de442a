#pragma once
// `infer --pair-json FILE.json`: a minimal pair for scripts and notebooks, both inputs' attention
// as `--attention` writes one input's, and how each head changed between them on lined-up tokens.
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "engine/analysis/minimal_pair.h"
#include "engine/inference/checkpoint_inference.h"

namespace ascope::cli {

/// The two questions of a pair and what the model answered, as `infer` asked them.
struct AskedPair {
  InferenceAnswer a;
  InferenceAnswer b;
  std::string input_a;      ///< the text, or the image file
  std::string input_b;      ///< the other text, or the same image file
  int occluded_patch = -1;  ///< the patch b occluded; -1 for a text pair
  MinimalPairComparison comparison;
};

/// {"occluded_patch" (null for a text pair), "a", "b" (each as attentionJson writes an answer),
///  "groups": [{"name", "layers", "heads", "query_labels", "key_labels" (lined up: the changed
///  span is one label, "big → small"), "changed_query", "changed_key" (its index, or null),
///  "maps": [{"layer", "head", "change", "most_changed_query", "most_changed_distance",
///  "difference": [[b − a…]…] (null where masked)}]}],
///  "heads_by_change": [{"group", "layer", "head", "change", "most_changed_query",
///  "most_changed_distance"}] (most changed first)}. Layers and heads count from 0.
nlohmann::json minimalPairJson(const AskedPair& pair);

}  // namespace ascope::cli
