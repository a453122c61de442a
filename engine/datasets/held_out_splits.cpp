#include "engine/datasets/held_out_splits.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "engine/datasets/seeded_split.h"

namespace ascope {

HeldOutAssignment assignHeldOut(const std::vector<std::string_view>& keys,
                                std::size_t validation_groups, std::size_t test_groups,
                                std::uint64_t seed) {
  // Groups in order of first appearance, so that the shuffle below alone decides the split.
  std::unordered_map<std::string_view, std::size_t> group_of;
  std::vector<std::vector<std::size_t>> groups;
  group_of.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto [it, added] = group_of.try_emplace(keys[i], groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  const std::size_t held_out_room = groups.empty() ? 0 : groups.size() - 1;
  test_groups = std::min(test_groups, held_out_room);
  validation_groups = std::min(validation_groups, held_out_room - test_groups);

  HeldOutAssignment a;
  const std::vector<std::size_t> order = seededPermutation(groups.size(), seed);
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const std::vector<std::size_t>& group = groups[order[rank]];
    if (rank < test_groups) {
      a.test.push_back(group.front());
    } else if (rank < test_groups + validation_groups) {
      a.validation.push_back(group.front());
    } else {
      a.train.insert(a.train.end(), group.begin(), group.end());
    }
  }
  std::sort(a.train.begin(), a.train.end());
  return a;
}

std::size_t countShared(const std::vector<std::string_view>& train,
                        const std::vector<std::string_view>& held_out) {
  const std::unordered_set<std::string_view> seen(train.begin(), train.end());
  return static_cast<std::size_t>(std::count_if(held_out.begin(), held_out.end(),
                                                [&](std::string_view k) { return seen.count(k); }));
}

std::string groupedCount(std::size_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), ",");
  }
  return digits;
}

}  // namespace ascope
