#include "app/cli/output/computation_json.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ascope::cli {
namespace {

/// Rows of a matrix; with `masked` (rows × cols flags), a masked cell is null, never a number.
nlohmann::json rowsOf(const ComputationMatrix& m,
                      const std::vector<std::uint8_t>* masked = nullptr) {
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < m.rows; ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (int c = 0; c < m.cols; ++c) {
      const std::size_t i = static_cast<std::size_t>(r) * m.cols + c;
      if (masked != nullptr && !masked->empty() && (*masked)[i]) {
        row.push_back(nullptr);
      } else {
        row.push_back(m.values[i]);
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::json stage(const std::string& name, const ComputationMatrix& m,
                     const std::string& shape_text, const std::string& formula,
                     const std::vector<std::uint8_t>* masked = nullptr) {
  return {{"name", name},
          {"shape", {m.rows, m.cols}},
          {"shape_text", shape_text},
          {"formula", formula},
          {"values", rowsOf(m, masked)}};
}

}  // namespace

nlohmann::json computationJson(const Explanation& explanation, const AttentionCellBreakdown& cell) {
  const AttentionComputation& c = explanation.computation;
  const std::string dh = std::to_string(c.d_head);
  nlohmann::json stages = nlohmann::json::array();
  stages.push_back(stage("query input", c.query_input, "[queries × d_model]",
                         c.norm_first ? "X = LayerNorm(layer input)" : "X = layer input"));
  if (c.group == "cross") {
    stages.push_back(stage("key input", c.key_input, "[keys × d_model]", "M = encoder output"));
  }
  stages.push_back(stage("Q", c.q, "[queries × d_head]", "Q = X W_Q + b_Q (head's columns)"));
  stages.push_back(stage("K", c.k, "[keys × d_head]", "K = X W_K + b_K (head's columns)"));
  stages.push_back(stage("V", c.v, "[keys × d_head]", "V = X W_V + b_V (head's columns)"));
  stages.push_back(stage("QKᵀ", c.logits, "[queries × keys]", "S = Q Kᵀ", &c.masked));
  stages.push_back(stage("scaled", c.scaled, "[queries × keys]", "S / √" + dh, &c.masked));
  stages.push_back(stage("weights", c.weights, "[queries × keys]",
                         "A = softmax(S / √" + dh + " + mask) over each row", &c.masked));
  stages.push_back(stage("head output", c.head_output, "[queries × d_head]", "A V"));
  stages.push_back(stage("joined", c.joined, "[queries × d_model]",
                         "concat(head_1 … head_" + std::to_string(c.heads) + ")"));
  stages.push_back(stage("output", c.output, "[queries × d_model]", "concat(…) W_O + b_O"));

  nlohmann::json split = nullptr;
  if (c.has_position_split) {
    split = {{"q_tokens", rowsOf(c.split.q_tokens)},
             {"q_positions", rowsOf(c.split.q_positions)},
             {"k_tokens", rowsOf(c.split.k_tokens)},
             {"k_positions", rowsOf(c.split.k_positions)}};
  }
  nlohmann::json parts = nullptr;
  if (cell.has_parts) {
    parts = nlohmann::json::object();
    for (std::size_t i = 0; i < cell.parts.size(); ++i) {
      parts[positionPartNames()[i]] = cell.parts[i];
    }
  }
  auto label = [](const std::vector<std::string>& labels, int i) {
    return i >= 0 && i < static_cast<int>(labels.size()) ? labels[static_cast<std::size_t>(i)]
                                                         : std::string();
  };
  nlohmann::json cell_json = {
      {"query", cell.query},
      {"key", cell.key},
      {"query_label", label(c.query_labels, cell.query)},
      {"key_label", label(c.key_labels, cell.key)},
      {"masked", cell.masked},
      {"products", cell.products},
      {"sum", cell.sum},
      {"logit", cell.masked ? nlohmann::json(nullptr) : nlohmann::json(cell.logit)},
      {"scale", cell.scale},
      {"scaled", cell.masked ? nlohmann::json(nullptr) : nlohmann::json(cell.scaled)},
      {"weight", cell.weight},
      {"rank_before", cell.rank_before},
      {"rank_after", cell.rank_after},
      {"unmasked_keys", cell.unmasked_keys},
      {"parts", parts}};
  return {{"task", c.task},
          {"group", c.group},
          {"layer", c.layer},
          {"head", c.head},
          {"heads", c.heads},
          {"d_model", c.d_model},
          {"d_head", c.d_head},
          {"step", c.step},
          {"weights", c.weights_file},
          {"input", c.input},
          {"answer", explanation.answer},
          {"scale", c.scale},
          {"key_offset", c.key_offset},
          {"keys_outside", c.keys_outside},
          {"query_labels", c.query_labels},
          {"key_labels", c.key_labels},
          {"stages", std::move(stages)},
          {"position_split", std::move(split)},
          {"cell", std::move(cell_json)},
          {"largest_difference_from_recorded", explanation.largest_difference
                                                   ? nlohmann::json(*explanation.largest_difference)
                                                   : nlohmann::json(nullptr)}};
}

}  // namespace ascope::cli
