#include "engine/tasks/encoder_attention_sites.h"

#include "engine/nn/encoder_layer.h"
#include "engine/tasks/attention_capture.h"

#include <utility>

namespace ascope {

torch::nn::LayerNorm firstLayerInputNorm(const PositionSource& positions, bool norm_first,
                                         const torch::nn::LayerNorm& layer_norm) {
  if (positions.norm_before) return positions.norm_before;
  return norm_first ? layer_norm : torch::nn::LayerNorm(nullptr);
}

std::vector<AttentionSite> encoderAttentionSites(torch::nn::ModuleList layers,
                                                 const std::string& group,
                                                 const PositionSource& positions) {
  std::vector<AttentionSite> sites;
  for (std::size_t i = 0; i < layers->size(); ++i) {
    auto* layer = layers[i]->as<EncoderLayer>();
    AttentionSite site;
    site.group = group;
    site.layer = static_cast<int>(i);
    site.module = layer->self_attn;
    site.norm_first = layer->normFirst();
    // A pre-norm first layer behind another LayerNorm would normalise twice: no exact split.
    const bool one_norm = !(positions.norm_before && layer->normFirst());
    if (i == 0 && positions.record && one_norm) {
      site.record_positions = positions.record;
      site.input_norm = firstLayerInputNorm(positions, layer->normFirst(), layer->norm1);
    }
    sites.push_back(std::move(site));
  }
  return sites;
}

PositionalEncodingSnapshot positionTableSnapshot(const at::Tensor& table, const std::string& kind) {
  PositionalEncodingSnapshot s;
  s.kind = kind;
  s.positions = static_cast<int>(table.size(0));
  s.dims = static_cast<int>(table.size(1));
  s.values = toFloats(table);
  return s;
}

}  // namespace ascope
