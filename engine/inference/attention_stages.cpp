#include "engine/inference/attention_stages.h"

#include <torch/nn/modules/normalization.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "engine/tasks/attention_capture.h"

namespace ascope {
namespace {

ComputationMatrix toMatrix(const at::Tensor& t) {
  const at::Tensor c = t.detach().to(at::kCPU, at::kFloat).contiguous();
  ComputationMatrix m;
  m.rows = static_cast<int>(c.size(0));
  m.cols = static_cast<int>(c.size(1));
  m.values = toFloats(c);
  return m;
}

/// Turns the site's recording on for its lifetime, so an exception leaves no module recording.
class SiteRecording {
 public:
  SiteRecording(const AttentionSite& site, AttentionInputs* inputs, PositionSums* sums)
      : site_(site) {
    site_.module->recordInputs(inputs);
    if (site_.record_positions) site_.record_positions(sums);
  }
  ~SiteRecording() {
    site_.module->recordInputs(nullptr);
    if (site_.record_positions) site_.record_positions(nullptr);
  }
  SiteRecording(const SiteRecording&) = delete;
  SiteRecording& operator=(const SiteRecording&) = delete;

 private:
  AttentionSite site_;  // a copy: its module holder shares the model's module
};

/// LayerNorm(s) = γ·(s − mean(s))/σ(s) + β with σ(s) = √(var(s) + ε): with the sum's own σ, a
/// part's share of it is γ·(part − mean(part))/σ(s), and the shares of the parts add up to it
/// less β. `sum` and `part` are (T, d).
at::Tensor normalisedShare(const at::Tensor& part, const at::Tensor& sum,
                           const torch::nn::LayerNorm& norm) {
  const double eps = norm->options.eps();
  const at::Tensor sigma =
      (sum.var(-1, /*unbiased=*/false, /*keepdim=*/true) + eps).sqrt();  // (T, 1)
  at::Tensor share = (part - part.mean(-1, true)) / sigma;
  if (norm->weight.defined()) share = share * norm->weight;
  return share;
}

at::Tensor shiftOf(const torch::nn::LayerNorm& norm, int64_t d, const at::Tensor& like) {
  return norm->bias.defined() ? norm->bias : at::zeros({d}, like.options());
}

struct InputParts {
  at::Tensor tokens;     ///< (T, d): the token's share of the attention's input, with the shift
  at::Tensor positions;  ///< (T, d): the position's share
};

/// The recorded sum that became `input` (T, d) — the last one that matches, since a translator's
/// one table adds positions for both its stacks — split as it reached the attention.
std::optional<InputParts> partsOf(const PositionSums& sums, const at::Tensor& input,
                                  const torch::nn::LayerNorm& norm) {
  const double tolerance = 1e-4 * std::max(1.0, input.abs().max().item<double>());
  for (auto it = sums.rbegin(); it != sums.rend(); ++it) {
    if (it->tokens.dim() != 3 || it->tokens.size(1) < input.size(0) ||
        it->tokens.size(2) != input.size(1)) {
      continue;
    }
    // LayerNorm works row by row: the rows cut off (padding) change nothing in the others.
    const at::Tensor tokens = it->tokens[0].narrow(0, 0, input.size(0));
    const at::Tensor positions = it->positions.expand_as(it->tokens)[0].narrow(0, 0, input.size(0));
    InputParts parts;
    if (norm) {
      const at::Tensor sum = tokens + positions;
      parts.tokens = normalisedShare(tokens, sum, norm) + shiftOf(norm, input.size(1), input);
      parts.positions = normalisedShare(positions, sum, norm);
    } else {
      parts.tokens = tokens;
      parts.positions = positions;
    }
    const double off = (parts.tokens + parts.positions - input).abs().max().item<double>();
    if (off <= tolerance) return parts;
  }
  return std::nullopt;
}

}  // namespace

Expected<AttentionSite> findAttentionSite(const std::vector<AttentionSite>& sites,
                                          const std::string& group, int layer) {
  std::string there;
  for (const AttentionSite& site : sites) {
    if (site.group == group && site.layer == layer) return site;
    if (site.layer == 0) there += (there.empty() ? "" : ", ") + ("\"" + site.group + "\"");
  }
  int layers = 0;
  for (const AttentionSite& site : sites) {
    if (site.group == group) layers = std::max(layers, site.layer + 1);
  }
  if (layers > 0) {
    return Error{"layer " + std::to_string(layer) + " is out of range: \"" + group + "\" has " +
                 std::to_string(layers) + " layers (0.." + std::to_string(layers - 1) + ")"};
  }
  return Error{"no attention group \"" + group + "\" in this model; it has " + there};
}

Expected<AttentionComputation> computeAttentionStages(
    const AttentionSite& site, int head, const std::function<Expected<StageLabels>()>& forward) {
  const MultiHeadAttentionImpl& module = *site.module;
  const int64_t e = module.options().embed_dim();
  const int64_t heads = module.options().num_heads();
  const int64_t dh = module.headDim();
  if (head < 0 || head >= heads) {
    return Error{"head " + std::to_string(head) + " is out of range: \"" + site.group +
                 "\" layer " + std::to_string(site.layer) + " has " + std::to_string(heads) +
                 " heads (0.." + std::to_string(heads - 1) + ")"};
  }
  AttentionInputs inputs;
  PositionSums sums;
  StageLabels labels;
  {
    SiteRecording recording(site, &inputs, &sums);
    Expected<StageLabels> asked = forward();
    if (!asked.ok()) return Error{asked.error()};
    labels = std::move(*asked);
  }
  if (!inputs.query.defined()) {
    return Error{"the model's forward pass did not reach \"" + site.group + "\" layer " +
                 std::to_string(site.layer)};
  }
  // Every key takes part in the softmax; the stages shown are cut to the labelled window.
  const int64_t all_keys = inputs.key.size(1);
  const int64_t ko = std::clamp<int64_t>(labels.key_offset, 0, all_keys);
  const int64_t tq = std::min<int64_t>(inputs.query.size(1), labels.queries.size());
  const int64_t tk = std::min<int64_t>(all_keys - ko, labels.keys.size());
  labels.queries.resize(static_cast<std::size_t>(tq));
  labels.keys.resize(static_cast<std::size_t>(tk));
  const at::Tensor xq = inputs.query[0].narrow(0, 0, tq);  // (Tq, E)
  const at::Tensor xk = inputs.key[0];                     // (all keys, E)
  const at::Tensor xv = inputs.value[0];                   // (all keys, E)
  auto window = [&](const at::Tensor& rows_by_key) { return rows_by_key.narrow(0, ko, tk); };
  auto columns = [&](const at::Tensor& by_key) { return by_key.narrow(1, ko, tk); };
  const at::Tensor& w = module.in_proj_weight;  // (3E, E) = [W_q; W_k; W_v]
  const at::Tensor& b = module.in_proj_bias;
  // Rows of head h of projection `which` (0 q, 1 k, 2 v), as the module's packed weight has them.
  auto project = [&](const at::Tensor& x, int64_t which, int64_t h, bool with_bias = true) {
    const int64_t first = which * e + h * dh;
    at::Tensor y = x.matmul(w.narrow(0, first, dh).t());  // (T, Dh)
    if (with_bias && b.defined()) y = y + b.narrow(0, first, dh);
    return y;
  };
  at::Tensor blocked;  // (B, H, Tq, Tk) bool, true = masked
  if (inputs.mask.defined()) {
    at::Tensor m = inputs.mask;
    while (m.dim() < 4) m = m.unsqueeze(0);
    blocked = m.expand({inputs.query.size(0), heads, inputs.query.size(1), all_keys});
  }
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  struct HeadNumbers {
    at::Tensor q, k, v, logits, scaled, blocked, weights, output;
  };
  auto headNumbers = [&](int64_t h) {
    HeadNumbers n;
    n.q = project(xq, 0, h);
    n.k = project(xk, 1, h);
    n.v = project(xv, 2, h);
    n.logits = n.q.matmul(n.k.t());  // (Tq, all keys)
    n.scaled = n.logits * scale;
    n.blocked = blocked.defined() ? blocked[0][h].narrow(0, 0, tq)
                                  : at::zeros({tq, all_keys}, at::TensorOptions().dtype(at::kBool));
    n.blocked = n.blocked.to(n.scaled.device());
    const at::Tensor filled =
        n.scaled.masked_fill(n.blocked, -std::numeric_limits<float>::infinity());
    // A row with every key blocked attends to nothing (zeros, as the module gives), not NaN.
    n.weights = at::softmax(filled, -1).masked_fill(n.blocked, 0.0);
    n.output = n.weights.matmul(n.v);  // (Tq, Dh)
    return n;
  };
  std::vector<at::Tensor> outputs;
  HeadNumbers shown;
  const std::vector<bool>& keep = module.headMask();
  for (int64_t h = 0; h < heads; ++h) {
    HeadNumbers n = headNumbers(h);
    const bool dropped = !keep.empty() && !keep[static_cast<std::size_t>(h)];
    outputs.push_back(dropped ? at::zeros_like(n.output) : n.output);
    if (h == head) shown = std::move(n);
  }
  const at::Tensor joined = at::cat(outputs, 1);  // (Tq, E)
  at::Tensor output = joined.matmul(module.out_proj->weight.t());
  if (module.out_proj->bias.defined()) output = output + module.out_proj->bias;

  AttentionComputation c;
  c.group = site.group;
  c.layer = site.layer;
  c.head = head;
  c.heads = static_cast<int>(heads);
  c.d_model = static_cast<int>(e);
  c.d_head = static_cast<int>(dh);
  c.norm_first = site.norm_first;
  c.scale = scale;
  c.key_offset = static_cast<int>(ko);
  // Keys outside the window that a shown query may see (masked ones, padding, take no part).
  if (tk < all_keys) {
    const at::Tensor seen = shown.blocked.logical_not().to(at::kCPU);  // (Tq, all keys)
    const at::Tensor inside = seen.narrow(1, ko, tk).sum(1);
    c.keys_outside = static_cast<int>((seen.sum(1) - inside).max().item<int64_t>());
  }
  c.query_labels = std::move(labels.queries);
  c.key_labels = std::move(labels.keys);
  c.query_input = toMatrix(xq);
  c.key_input = toMatrix(window(xk));
  c.q = toMatrix(shown.q);
  c.k = toMatrix(window(shown.k));
  c.v = toMatrix(window(shown.v));
  c.logits = toMatrix(columns(shown.logits));
  c.scaled = toMatrix(columns(shown.scaled));
  const at::Tensor mask_bytes = columns(shown.blocked).to(at::kCPU, at::kByte).contiguous();
  c.masked.assign(mask_bytes.data_ptr<std::uint8_t>(),
                  mask_bytes.data_ptr<std::uint8_t>() + mask_bytes.numel());
  c.weights = toMatrix(columns(shown.weights));
  c.head_output = toMatrix(shown.output);
  c.joined = toMatrix(joined);
  c.output = toMatrix(output);

  // The split needs the sum that fed this very input, and keys made from the same rows.
  const bool self_attention = inputs.key.is_same(inputs.query);
  if (site.record_positions && self_attention) {
    const std::optional<InputParts> parts = partsOf(sums, xk, site.input_norm);
    if (parts) {
      c.has_position_split = true;
      c.split.q_tokens = toMatrix(project(parts->tokens.narrow(0, 0, tq), 0, head));
      c.split.q_positions = toMatrix(project(parts->positions.narrow(0, 0, tq), 0, head, false));
      c.split.k_tokens = toMatrix(project(window(parts->tokens), 1, head));
      c.split.k_positions = toMatrix(project(window(parts->positions), 1, head, false));
    }
  }
  return c;
}

}  // namespace ascope
