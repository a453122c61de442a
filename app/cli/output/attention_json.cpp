#include "app/cli/output/attention_json.h"

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>
#include <vector>

#include "engine/core/atomic_file.h"

namespace ascope::cli {

nlohmann::json attentionSnapshotJson(const AttentionSnapshot& snapshot) {
  nlohmann::json groups = nlohmann::json::array();
  for (const AttentionGroup& group : snapshot.groups) {
    nlohmann::json maps = nlohmann::json::array();
    for (int layer = 0; layer < group.layers; ++layer) {
      for (int head = 0; head < group.heads; ++head) {
        const AttentionMap& map = group.map(layer, head);
        nlohmann::json weights = nlohmann::json::array();
        for (int row = 0; row < map.rows; ++row) {
          const auto first = map.values.begin() + static_cast<std::ptrdiff_t>(row) * map.cols;
          weights.push_back(std::vector<float>(first, first + map.cols));
        }
        maps.push_back({{"layer", layer}, {"head", head}, {"weights", std::move(weights)}});
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
  nlohmann::json decoding = nlohmann::json::array();
  if (const DecodingPayload* transcript = snapshot.payloads.find<DecodingPayload>()) {
    for (std::size_t row = 0; row < transcript->steps.size(); ++row) {
      nlohmann::json top = nlohmann::json::array();
      for (const auto& [token, probability] : transcript->steps[row].top) {
        top.push_back({{"token", token}, {"probability", probability}});
      }
      decoding.push_back({{"row", row}, {"top", std::move(top)}});
    }
  }
  nlohmann::json out = {{"groups", std::move(groups)}, {"decoding", std::move(decoding)}};
  // Patch labels are bare indices: the grid says where each patch lies in the image.
  const ImagePayload* image = snapshot.payloads.find<ImagePayload>();
  if (image != nullptr && image->grid_rows > 0) {
    out["patch_size"] = image->patch_size;
    out["grid_rows"] = image->grid_rows;
    out["grid_cols"] = image->grid_cols;
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

Status checkWritableFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Error{path + " is a folder, not a file name"};
  const fs::path parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? std::string(".") : parent.string();
  if (!fs::is_directory(folder, ec)) {
    return Error{"cannot write " + path + ": no such folder " + folder};
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return Error{"cannot write " + path + ": " + std::strerror(errno)};
  }
  return {};
}

Status writeAttentionJson(const std::string& path, const InferenceAnswer& answer,
                          const std::string& input) {
  // A text given on the command line need not be UTF-8; JSON must be.
  return writeFileAtomically(
      path,
      attentionJson(answer, input).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
          "\n");
}

}  // namespace ascope::cli
