#pragma once
// The tops of the Run colour scale of one attention group: each head's largest informative weight
// (AttentionHeadDisplay::informativeMax) over the snapshots of a run. One top for the whole group
// let one sharp head (~0.9) wash every other head out at every step; per head, a head
// still compares like with like along the timeline, and every head shows its own structure.
#include <vector>

namespace ascope {

struct AttentionPlotGroup;

class AttentionRunMaxima {
 public:
  AttentionRunMaxima() = default;
  /// Tops already taken, [layer][head] (the engine's informativeHeadMaxima of a stored snapshot).
  explicit AttentionRunMaxima(const std::vector<std::vector<float>>& tops);
  /// Raises each head's top to its largest weight in `group`.
  void add(const AttentionPlotGroup& group);
  /// Raises each head's top to `other`'s.
  void raise(const AttentionRunMaxima& other);
  /// The tops of the heads of `layer`, in head order (0 for a head never seen).
  std::vector<double> layer(int layer) const;
  /// The largest top of all; 0 when none was seen.
  double overall() const;
  bool empty() const { return tops_.empty(); }

 private:
  std::vector<std::vector<double>> tops_;  ///< [layer][head]
};

}  // namespace ascope
