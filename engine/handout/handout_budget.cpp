#include "engine/handout/handout_budget.h"

#include <algorithm>
#include <functional>

namespace ascope {
namespace {

/// The most frames in [low, high] with which `s` fits (binary search: more frames never cost
/// less); `low` when none does.
int mostFramesThatFit(const HandoutCosts& costs, HandoutSelection s, int low, int high,
                      std::size_t max_bytes) {
  const int total = static_cast<int>(costs.frames.size());
  int best = low;
  while (low <= high) {
    const int mid = low + (high - low) / 2;
    s.frames = evenlySpaced(total, mid);
    if (estimateBytes(costs, s) <= max_bytes) {
      best = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/// A group's layers in the order they are left out: the middle ones first, outward, never the
/// first or the last.
std::vector<int> middleLayersFirst(int layers) {
  std::vector<int> order;
  for (int l = 1; l + 1 < layers; ++l) order.push_back(l);
  const double middle = (layers - 1) / 2.0;
  std::stable_sort(order.begin(), order.end(),
                   [middle](int a, int b) { return std::abs(a - middle) < std::abs(b - middle); });
  return order;
}

std::string joinNumbers(const std::vector<int>& numbers, const std::string& prefix) {
  std::string out;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (i > 0) out += i + 1 == numbers.size() ? " and " : ", ";
    out += prefix + std::to_string(numbers[i]);
  }
  return out;
}

}  // namespace

std::vector<int> evenlySpaced(int total, int count) {
  std::vector<int> out;
  if (total <= 0 || count <= 0) return out;
  count = std::min(count, total);
  if (count == 1) return {total - 1};
  for (int i = 0; i < count; ++i) {
    const long long index =
        (static_cast<long long>(i) * (total - 1) + (count - 1) / 2) / (count - 1);
    out.push_back(static_cast<int>(index));
  }
  return out;
}

std::size_t estimateBytes(const HandoutCosts& costs, const HandoutSelection& s) {
  std::size_t total = costs.fixed;
  for (int f : s.frames) {
    const HandoutCosts::Frame& frame = costs.frames[static_cast<std::size_t>(f)];
    total += frame.overhead;
    const int probes = std::min(s.probes, static_cast<int>(frame.layer_bytes.size()));
    for (int p = 0; p < probes; ++p) {
      if (static_cast<std::size_t>(p) < frame.probe_overhead.size()) {
        total += frame.probe_overhead[static_cast<std::size_t>(p)];
      }
      const auto& groups = frame.layer_bytes[static_cast<std::size_t>(p)];
      for (std::size_t g = 0; g < groups.size() && g < s.groups.size(); ++g) {
        if (!s.groups[g]) continue;
        for (std::size_t l = 0; l < groups[g].size() && l < s.layers[g].size(); ++l) {
          if (s.layers[g][l]) total += groups[g][l];
        }
      }
    }
  }
  return total;
}

HandoutSelection everythingIn(const HandoutCosts& costs) {
  HandoutSelection s;
  s.frames =
      evenlySpaced(static_cast<int>(costs.frames.size()), static_cast<int>(costs.frames.size()));
  s.probes = costs.probes;
  s.groups.assign(costs.group_layers.size(), true);
  for (int layers : costs.group_layers) s.layers.emplace_back(std::max(0, layers), true);
  return s;
}

HandoutSelection planHandout(const HandoutCosts& costs, std::size_t max_bytes) {
  HandoutSelection s = everythingIn(costs);
  const auto fits = [&] { return estimateBytes(costs, s) <= max_bytes; };
  const auto done = [&] {
    s.estimated_bytes = estimateBytes(costs, s);
    s.fits = s.estimated_bytes <= max_bytes;
    return s;
  };
  if (fits()) return done();
  const int total = static_cast<int>(costs.frames.size());
  const int floor = std::min(total, kEvenThinningFloor);
  // 1. Thin the timeline, keeping at least `floor` snapshots.
  s.frames = evenlySpaced(total, mostFramesThatFit(costs, s, floor, total, max_bytes));
  // Then each of the cuts below, one at a time, until the floor's snapshots fit.
  std::vector<std::function<bool()>> cuts;  // each returns false when it has nothing left to cut
  cuts.emplace_back([&] {                   // 2. the last probe sample
    if (s.probes <= 1) return false;
    --s.probes;
    return true;
  });
  std::size_t layer_rank = 0;
  cuts.emplace_back([&] {  // 3. the next middle layer of every group that has one
    bool cut = false;
    for (std::size_t g = 0; g < s.layers.size(); ++g) {
      const std::vector<int> order = middleLayersFirst(static_cast<int>(s.layers[g].size()));
      if (layer_rank < order.size()) {
        s.layers[g][static_cast<std::size_t>(order[layer_rank])] = false;
        cut = true;
      }
    }
    ++layer_rank;
    return cut;
  });
  cuts.emplace_back([&] {  // 4. a rollout, else the last model group but the first
    for (std::size_t g = s.groups.size(); g-- > 0;) {
      if (s.groups[g] && costs.group_is_rollout[g]) return (s.groups[g] = false), true;
    }
    int kept = 0;
    for (bool k : s.groups) kept += k ? 1 : 0;
    if (kept <= 1) return false;
    for (std::size_t g = s.groups.size(); g-- > 0;) {
      if (s.groups[g]) return (s.groups[g] = false), true;
    }
    return false;
  });
  for (const std::function<bool()>& cut : cuts) {
    while (!fits() && cut()) {
    }
    if (fits()) break;
  }
  // 5. Fewer snapshots than the floor: down to the first and the last, then the last alone.
  if (!fits()) s.frames = evenlySpaced(total, mostFramesThatFit(costs, s, 1, floor, max_bytes));
  if (!fits()) return done();
  // What was left out may have made room for more snapshots again.
  s.frames = evenlySpaced(
      total, mostFramesThatFit(costs, s, static_cast<int>(s.frames.size()), total, max_bytes));
  return done();
}

std::vector<std::string> describeLeftOut(const HandoutCosts& costs, const HandoutSelection& s,
                                         const std::vector<std::string>& group_titles,
                                         const std::vector<int>& probe_samples) {
  std::vector<std::string> out;
  const std::size_t total = costs.frames.size();
  if (s.frames.size() < total) {
    out.push_back(std::to_string(total - s.frames.size()) + " of the run's " +
                  std::to_string(total) + " snapshots (" + std::to_string(s.frames.size()) +
                  " kept, evenly spaced from the first to the last)");
  }
  if (s.probes < costs.probes) {
    std::vector<int> dropped;
    for (int p = s.probes; p < costs.probes; ++p) {
      dropped.push_back(static_cast<std::size_t>(p) < probe_samples.size()
                            ? probe_samples[static_cast<std::size_t>(p)]
                            : p);
    }
    out.push_back(std::string(dropped.size() == 1 ? "probe sample " : "probe samples ") +
                  joinNumbers(dropped, "#") + " (the first " + std::to_string(s.probes) + " of " +
                  std::to_string(costs.probes) + " kept)");
  }
  const auto title = [&](std::size_t g) {
    return g < group_titles.size() ? group_titles[g] : "group " + std::to_string(g);
  };
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    if (!s.groups[g]) {
      out.push_back("the attention group \"" + title(g) + "\"");
      continue;
    }
    std::vector<int> dropped, kept;
    for (std::size_t l = 0; l < s.layers[g].size(); ++l) {
      (s.layers[g][l] ? kept : dropped).push_back(static_cast<int>(l));
    }
    if (!dropped.empty()) {
      out.push_back(std::string(dropped.size() == 1 ? "layer " : "layers ") +
                    joinNumbers(dropped, "") + " of \"" + title(g) + "\" (" +
                    joinNumbers(kept, "") + " kept)");
    }
  }
  return out;
}

}  // namespace ascope
