#pragma once
// One explained head as the handout's document holds it (resources/handout/handout.schema.json,
// "computations"). What the page does arithmetic with, or ranks by, keeps the model's float32
// (q and k, QKᵀ, the scaled logits, the weights, the position split): the page's products and
// ranks are then breakDownCell's to the last bit. What it only draws and reads out (the layer's
// input, V, the head's output, the joined heads, the output projection) is binary16, a relative
// error under 0.05 %, at half the bytes.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/handout/handout_computation.h"

namespace ascope {

/// The index of a label list in the document's `labels` (-1 for none), as the packer keeps it.
using LabelListIndex = std::function<int(const std::vector<std::string>&)>;

/// `group`: the index of the head's group in the document's `groups`, -1 where the run stored
/// none of it.
nlohmann::json packComputation(const HandoutComputation& computation, int group,
                               const LabelListIndex& label_list);

}  // namespace ascope
