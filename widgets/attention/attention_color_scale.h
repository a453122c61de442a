#pragma once

namespace ascope {

/// How the attention panel maps weights to colours. The choice decides what two pictures can be
/// compared for: only a scale shared between them lets "brighter" mean "more weight".
enum class AttentionColorScale {
  Fixed,  ///< one scale 0..1 for everything: absolute, but dim while weights are spread out
  Run,  ///< 0..each head's largest weight in the run: steps along a timeline compare like with like
  PerHead,  ///< each head 0..its own largest weight: the pattern of every head, not their strength
  PerRow,   ///< each query row divided by its own largest weight: where each query looks most
};

}  // namespace ascope
