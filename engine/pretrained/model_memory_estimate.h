#pragma once
// How much memory a Hugging Face model will take, worked out from its config.json before anything
// is allocated: a config claiming a huge width or depth must be refused with a message, not end
// in the allocator killing the process halfway through building the model. Plain C++.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/pretrained/hf_model_config.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

enum class ModelUse {
  kInference,  ///< the float32 weights
  kTraining,   ///< the weights, their gradients and AdamW's two moments
};

struct ModelMemoryEstimate {
  double parameters = 0;
  /// The config.json fields behind the largest share of the parameters, with their values, e.g.
  /// "num_hidden_layers 12 × (hidden_size 768, intermediate_size 3072)".
  std::string largest_fields;

  /// Float32 bytes for `use`: 4 a parameter, 16 when training.
  double bytes(ModelUse use) const;
};

ModelMemoryEstimate estimateModelMemory(const BertConfig& config);
ModelMemoryEstimate estimateModelMemory(const VitConfig& config);

/// Refuses a model that needs more than `available_bytes` for `use`; the message names
/// `config_path`, the fields that make the model large, the needed and the available size and
/// where the latter comes from (`available_source`, e.g. "MemAvailable in /proc/meminfo").
/// Without a known available size nothing is refused.
Status checkModelFitsMemory(const ModelMemoryEstimate& estimate, ModelUse use,
                            std::optional<std::uint64_t> available_bytes,
                            const std::string& available_source, const std::string& config_path);

}  // namespace ascope
