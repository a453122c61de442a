#include "widgets/decoding/beam_tree_data.h"

#include <algorithm>

namespace ascope {

int BeamTreeData::stepCount() const {
  int steps = 0;
  for (const Node& n : nodes) steps = std::max(steps, n.step + 1);
  return steps;
}

std::vector<int> BeamTreeData::pathTo(int node) const {
  std::vector<int> path;
  // Parents always come before their children; the bound guards against a malformed tree.
  for (int at = node; at >= 0 && at < static_cast<int>(nodes.size()) && path.size() <= nodes.size();
       at = nodes[static_cast<std::size_t>(at)].parent) {
    path.push_back(at);
  }
  std::reverse(path.begin(), path.end());
  return path;
}

int BeamTreeData::hypothesisThrough(int node) const {
  for (std::size_t h = 0; h < hypotheses.size(); ++h) {
    const std::vector<int> path = pathTo(hypotheses[h].node);
    if (std::find(path.begin(), path.end(), node) != path.end()) return static_cast<int>(h);
  }
  return -1;
}

}  // namespace ascope
