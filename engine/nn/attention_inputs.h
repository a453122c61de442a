#pragma once
// What an attention module was given on its last forward pass, kept only while someone asks
// (the Computation view recomputes the head from it with the module's own weights).
#include <ATen/ATen.h>

namespace ascope {

struct AttentionInputs {
  at::Tensor query;  ///< (B, Tq, E)
  at::Tensor key;    ///< (B, Tk, E)
  at::Tensor value;  ///< (B, Tk, E)
  at::Tensor mask;   ///< bool broadcastable to (B, H, Tq, Tk), true = blocked; undefined: none
};

}  // namespace ascope
