#include "app/cli/output/attention_json.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/cli/output/json_output_file.h"
#include "app/cli/output/payloads/payload_json_writers.h"

namespace ascope::cli {

nlohmann::json weightRowsJson(const AttentionMap& map) {
  nlohmann::json weights = nlohmann::json::array();
  for (int row = 0; row < map.rows; ++row) {
    const auto first = map.values.begin() + static_cast<std::ptrdiff_t>(row) * map.cols;
    weights.push_back(std::vector<float>(first, first + map.cols));
  }
  return weights;
}

nlohmann::json attentionSnapshotJson(const AttentionSnapshot& snapshot) {
  nlohmann::json groups = nlohmann::json::array();
  for (const AttentionGroup& group : snapshot.groups) {
    nlohmann::json maps = nlohmann::json::array();
    for (int layer = 0; layer < group.layers; ++layer) {
      for (int head = 0; head < group.heads; ++head) {
        maps.push_back({{"layer", layer},
                        {"head", head},
                        {"weights", weightRowsJson(group.map(layer, head))}});
      }
    }
    groups.push_back({{"name", group.name},
                      {"layers", group.layers},
                      {"heads", group.heads},
                      {"causal", group.causal},
                      {"row_labels", group.row_labels},
                      {"col_labels", group.col_labels},
                      {"row_predictions", group.row_predictions},
                      {"maps", std::move(maps)}});
  }
  nlohmann::json out = {{"groups", std::move(groups)}};
  for (const PayloadJsonWriter& writer : payloadJsonWriters()) {
    writer.write(out, snapshot.payloads.findKind(writer.kind.c_str()));
  }
  return out;
}

nlohmann::json attentionJson(const InferenceAnswer& answer, const std::string& input) {
  nlohmann::json out = {{"task", answer.task},
                        {"checkpoint", answer.checkpoint},
                        {"step", answer.step},
                        {"input", input},
                        {"label", answer.label}};
  out.update(attentionSnapshotJson(answer.attention));
  return out;
}

Status writeAttentionJson(const std::string& path, const InferenceAnswer& answer,
                          const std::string& input, const std::vector<CommandInput>& inputs) {
  return writeJsonOutputFile(path, attentionJson(answer, input), inputs);
}

}  // namespace ascope::cli
