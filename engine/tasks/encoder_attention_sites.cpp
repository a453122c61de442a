#include "engine/tasks/encoder_attention_sites.h"

#include "engine/nn/encoder_layer.h"
#include "engine/tasks/attention_capture.h"

namespace ascope {

std::vector<AttentionSite> encoderAttentionSites(torch::nn::ModuleList layers,
                                                 const std::string& group) {
  std::vector<AttentionSite> sites;
  for (std::size_t i = 0; i < layers->size(); ++i) {
    sites.push_back({group, static_cast<int>(i), layers[i]->as<EncoderLayer>()->self_attn});
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
