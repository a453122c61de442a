#include "tests/handout/synthetic_computation.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace ascope::testing {
namespace {

ComputationMatrix filled(int rows, int cols, float first, float step) {
  ComputationMatrix m{rows, cols, {}};
  for (int i = 0; i < rows * cols; ++i) {
    // Signs that change, so products of both signs add up.
    m.values.push_back((first + step * static_cast<float>(i)) * (i % 3 == 1 ? -1.0f : 1.0f));
  }
  return m;
}

ComputationMatrix sum(const ComputationMatrix& a, const ComputationMatrix& b) {
  ComputationMatrix m = a;
  for (std::size_t i = 0; i < m.values.size(); ++i) m.values[i] += b.values[i];
  return m;
}

}  // namespace

AttentionComputation syntheticComputation() {
  constexpr int kTokens = 4, kModel = 4, kHead = 2;
  AttentionComputation c;
  c.task = "letters";
  c.group = "decoder self";
  c.layer = 0;
  c.head = 1;
  c.heads = 2;
  c.d_model = kModel;
  c.d_head = kHead;
  c.step = 120;
  c.weights_file = "/home/lecturer/runs/letters/checkpoints/last.pt";
  c.sample_index = 2;
  c.input = "validation sample 2";
  c.scale = 1 / std::sqrt(static_cast<double>(kHead));
  c.query_labels = {"<bos>", "d", "c", "b"};
  c.key_labels = c.query_labels;
  c.query_input = filled(kTokens, kModel, 0.31f, 0.07f);
  c.key_input = c.query_input;
  c.split.q_tokens = filled(kTokens, kHead, 0.9f, 0.13f);
  c.split.q_positions = filled(kTokens, kHead, -0.2f, 0.05f);
  c.split.k_tokens = filled(kTokens, kHead, 0.4f, -0.11f);
  c.split.k_positions = filled(kTokens, kHead, 0.15f, 0.09f);
  c.has_position_split = true;
  c.q = sum(c.split.q_tokens, c.split.q_positions);
  c.k = sum(c.split.k_tokens, c.split.k_positions);
  c.v = filled(kTokens, kHead, 0.5f, -0.03f);
  c.logits = {kTokens, kTokens, {}};
  c.scaled = c.logits;
  c.weights = c.logits;
  for (int i = 0; i < kTokens; ++i) {
    float total = 0;
    std::vector<float> e;
    for (int j = 0; j < kTokens; ++j) {
      float dot = 0;
      for (int d = 0; d < kHead; ++d) dot += c.q.at(i, d) * c.k.at(j, d);
      c.logits.values.push_back(dot);
      c.scaled.values.push_back(dot * static_cast<float>(c.scale));
      c.masked.push_back(j > i ? 1 : 0);  // a decoder never looks ahead
      e.push_back(j > i ? 0.0f : std::exp(c.scaled.values.back()));
      total += e.back();
    }
    for (float x : e) c.weights.values.push_back(x / total);
  }
  c.head_output = filled(kTokens, kHead, 0.2f, 0.01f);
  c.joined = filled(kTokens, kModel, -0.6f, 0.04f);
  c.output = filled(kTokens, kModel, 1.7f, -0.2f);
  return c;
}

}  // namespace ascope::testing
