#pragma once
// Choosing what of a run's attention fits a handout of a given size. In this order, until the
// page fits: the snapshots are thinned evenly (down to kEvenThinningFloor of them), probe samples
// are left out (the last first; the first is kept), then the middle layers of every group (the
// first and the last kept), then whole groups (the rollouts, then the model's groups from the
// last; the first is kept), then the snapshots are thinned further (down to the first and the
// last). Whatever was left out frees room for more snapshots again, so the kept snapshots are
// then as many as fit. The page says what was left out (describeLeftOut).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ascope {

/// Below this many snapshots, the timeline keeps its frames and loses samples, layers or groups
/// first: 20 frames still show how attention changed, five do not.
inline constexpr int kEvenThinningFloor = 20;

/// What each part of the attention adds to the page, in bytes (as packed, base64 included).
struct HandoutCosts {
  std::size_t fixed = 0;  ///< the page without any snapshot: template, curves, statistics, …
  struct Frame {
    std::size_t overhead = 0;                 ///< its step and (when new) its positional encoding
    std::vector<std::size_t> probe_overhead;  ///< per probe: labels, prediction, decoding, image
    /// [probe][group][layer]: that layer's maps (0 where the probe lacks the group)
    std::vector<std::vector<std::vector<std::size_t>>> layer_bytes;
  };
  std::vector<Frame> frames;           ///< by step
  int probes = 0;                      ///< probe samples per frame (the most any frame has)
  std::vector<int> group_layers;       ///< per group, its layers
  std::vector<bool> group_is_rollout;  ///< per group: an aggregate the page adds
};

struct HandoutSelection {
  std::vector<int> frames;   ///< indices of the kept frames, ascending
  int probes = 0;            ///< the first `probes` probe samples of each frame are kept
  std::vector<bool> groups;  ///< per group: kept
  std::vector<std::vector<bool>> layers;  ///< per group, per layer: kept
  std::size_t estimated_bytes = 0;
  bool fits = false;  ///< false: even the smallest selection is over the limit
};

/// `count` of `total` indices spread evenly from the first to the last (the last alone for 1).
std::vector<int> evenlySpaced(int total, int count);

/// Every frame, probe sample, group and layer the costs list: what a page that fits holds.
HandoutSelection everythingIn(const HandoutCosts& costs);

/// The page's size for `selection`, by the costs.
std::size_t estimateBytes(const HandoutCosts& costs, const HandoutSelection& selection);

/// Everything when it fits under `max_bytes`; else as much as fits, left out in the order above.
/// When nothing does, the smallest selection with fits = false.
HandoutSelection planHandout(const HandoutCosts& costs, std::size_t max_bytes);

/// One sentence per thing left out, for the page and the command's summary: "150 of the 199
/// snapshots (49 kept, evenly spaced)", "probe samples #2 and #3 (of 4)", "layers 1–4 of encoder
/// self (0 and 5 kept)", "the group cross". `group_titles` and `probe_samples` name them.
std::vector<std::string> describeLeftOut(const HandoutCosts& costs,
                                         const HandoutSelection& selection,
                                         const std::vector<std::string>& group_titles,
                                         const std::vector<int>& probe_samples);

}  // namespace ascope
