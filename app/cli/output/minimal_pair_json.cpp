#include "app/cli/output/minimal_pair_json.h"

#include <nlohmann/json.hpp>

#include "app/cli/output/attention_json.h"

namespace ascope::cli {
namespace {

/// A lined-up axis's changed position, or null when nothing changed on it.
nlohmann::json changedIndex(const AlignedTokens& tokens) {
  const int position = tokens.alignment.changedPosition();
  return position < 0 ? nlohmann::json(nullptr) : nlohmann::json(position);
}

nlohmann::json headChangeJson(const HeadChange& head) {
  return {{"group", head.group},
          {"layer", head.layer},
          {"head", head.head},
          {"change", head.change},
          {"most_changed_query", head.most_changed_query},
          {"most_changed_distance", head.most_changed_distance}};
}

}  // namespace

nlohmann::json minimalPairJson(const AskedPair& pair) {
  nlohmann::json groups = nlohmann::json::array();
  for (const AlignedGroup& group : pair.comparison.groups) {
    nlohmann::json maps = nlohmann::json::array();
    for (const AlignedHead& head : group.maps) {
      nlohmann::json map = headChangeJson(head.change);
      map.erase("group");
      map["difference"] = weightRowsJson(head.difference);
      maps.push_back(std::move(map));
    }
    groups.push_back({{"name", group.name},
                      {"layers", group.layers},
                      {"heads", group.heads},
                      {"query_labels", group.queries.labels},
                      {"key_labels", group.keys.labels},
                      {"changed_query", changedIndex(group.queries)},
                      {"changed_key", changedIndex(group.keys)},
                      {"maps", std::move(maps)}});
  }
  nlohmann::json ranked = nlohmann::json::array();
  for (const HeadChange& head : rankHeadChanges(pair.comparison).heads) {
    ranked.push_back(headChangeJson(head));
  }
  return {{"occluded_patch",
           pair.occluded_patch < 0 ? nlohmann::json(nullptr) : nlohmann::json(pair.occluded_patch)},
          {"a", attentionJson(pair.a, pair.input_a)},
          {"b", attentionJson(pair.b, pair.input_b)},
          {"groups", std::move(groups)},
          {"heads_by_change", std::move(ranked)}};
}

}  // namespace ascope::cli
