#include "engine/handout/handout_computation_packing.h"

#include <cmath>
#include <cstdint>
#include <filesystem>

#include "engine/analysis/attention_cell_breakdown.h"
#include "engine/core/float_bytes.h"
#include "engine/core/half_float.h"
#include "engine/handout/base64.h"

namespace ascope {
namespace {

using nlohmann::json;

std::string b64(const std::vector<std::uint8_t>& bytes) {
  return base64Encode(bytes.data(), bytes.size());
}

/// {rows, cols, values}: float32 where the page computes with the numbers, binary16 where it
/// only shows them.
json matrix(const ComputationMatrix& m, bool exact) {
  return {{"rows", m.rows},
          {"cols", m.cols},
          {"values", b64(exact ? packFloat32s(m.values) : packHalves(m.values))}};
}

json number(double value) {
  return std::isfinite(value) ? json(value) : json(nullptr);
}

/// The engine's own breakdown of the chosen cell: what the page's arithmetic must give for it.
json cellJson(const AttentionComputation& c, int query, int key) {
  Expected<AttentionCellBreakdown> b = breakDownCell(c, query, key);
  if (!b.ok()) return nullptr;
  json products = json::array();
  for (double p : b->products) products.push_back(number(p));
  json parts = nullptr;
  if (b->has_parts) {
    parts = json::array();
    for (double p : b->parts) parts.push_back(number(p));
  }
  return {{"query", b->query},
          {"key", b->key},
          {"masked", b->masked},
          {"products", std::move(products)},
          {"sum", number(b->sum)},
          {"logit", number(b->logit)},
          {"scaled", number(b->scaled)},
          {"weight", number(b->weight)},
          {"rank_before", b->rank_before},
          {"rank_after", b->rank_after},
          {"unmasked_keys", b->unmasked_keys},
          {"parts", std::move(parts)}};
}

}  // namespace

json packComputation(const HandoutComputation& hc, int group, const LabelListIndex& label_list) {
  const AttentionComputation& c = hc.computation;
  // Self-attention reads its keys from the rows its queries come from: those are packed once.
  const bool same_input = c.key_offset == 0 && c.query_input.rows == c.key_input.rows &&
                          c.query_input.values == c.key_input.values;
  bool any_masked = false;
  for (std::uint8_t m : c.masked) any_masked |= m != 0;
  json split = nullptr;
  if (c.has_position_split) {
    split = {{"q_tokens", matrix(c.split.q_tokens, true)},
             {"q_positions", matrix(c.split.q_positions, true)},
             {"k_tokens", matrix(c.split.k_tokens, true)},
             {"k_positions", matrix(c.split.k_positions, true)}};
  }
  return {
      {"group", group},
      {"group_name", c.group},
      {"layer", c.layer},
      {"head", c.head},
      {"heads", c.heads},
      {"d_model", c.d_model},
      {"d_head", c.d_head},
      {"step", c.step},
      // Only the file's name: a page for students carries no path of the lecturer's disk.
      {"weights_file", std::filesystem::path(c.weights_file).filename().string()},
      {"sample", c.sample_index},
      {"input", c.input},
      {"norm_first", c.norm_first},
      {"scale", c.scale},
      {"key_offset", c.key_offset},
      {"keys_outside", c.keys_outside},
      {"query_labels", label_list(c.query_labels)},
      {"key_labels", label_list(c.key_labels)},
      {"query_input", matrix(c.query_input, false)},
      {"key_input", same_input ? json(nullptr) : matrix(c.key_input, false)},
      {"q", matrix(c.q, true)},
      {"k", matrix(c.k, true)},
      {"v", matrix(c.v, false)},
      {"logits", matrix(c.logits, true)},
      {"scaled", matrix(c.scaled, true)},
      {"masked", any_masked ? b64(c.masked) : ""},
      {"weights", matrix(c.weights, true)},
      {"head_output", matrix(c.head_output, false)},
      {"joined", matrix(c.joined, false)},
      {"output", matrix(c.output, false)},
      {"split", std::move(split)},
      {"cell", cellJson(c, hc.query, hc.key)},
  };
}

}  // namespace ascope
