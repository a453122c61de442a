#pragma once
#include <string>

#include "engine/nn/feed_forward.h"

namespace ascope {

/// The feed-forward activation for a transformers hidden_act that the config validation
/// accepted: "gelu" is the erf GELU; "gelu_new" and "gelu_pytorch_tanh" are the same tanh
/// approximation, computed in a different order (equal to about 1e-7).
inline Activation activationForHiddenAct(const std::string& hidden_act) {
  if (hidden_act == "relu") return Activation::kRelu;
  if (hidden_act == "gelu_new" || hidden_act == "gelu_pytorch_tanh") return Activation::kGeluTanh;
  return Activation::kGelu;
}

}  // namespace ascope
