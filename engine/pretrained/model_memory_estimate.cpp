#include "engine/pretrained/model_memory_estimate.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/regular_file.h"

namespace ascope {
namespace {

std::string namedCount(const char* name, int64_t value) {
  return std::string(name) + " " + std::to_string(value);
}

/// Parameters of `layers` encoder layers: q, k, v and output projections with biases, two
/// LayerNorms, the feed-forward pair.
double encoderParameters(int64_t layers, int64_t hidden, int64_t intermediate) {
  const double h = static_cast<double>(hidden), i = static_cast<double>(intermediate);
  return static_cast<double>(layers) * (4 * (h * h + h) + 4 * h + 2 * h * i + i + h);
}

/// The estimate from the model's parts, each with the fields that size it.
ModelMemoryEstimate fromParts(const std::vector<std::pair<double, std::string>>& parts) {
  ModelMemoryEstimate estimate;
  double largest = -1;
  for (const auto& [parameters, fields] : parts) {
    estimate.parameters += parameters;
    if (parameters > largest) {
      largest = parameters;
      estimate.largest_fields = fields;
    }
  }
  return estimate;
}

std::string layerFields(int64_t layers, int64_t hidden, int64_t intermediate) {
  return namedCount("num_hidden_layers", layers) + " × (" + namedCount("hidden_size", hidden) +
         ", " + namedCount("intermediate_size", intermediate) + ")";
}

std::string countText(double parameters) {
  char text[32];
  if (parameters >= 1e12) {
    std::snprintf(text, sizeof text, "%.1f trillion", parameters / 1e12);
  } else if (parameters >= 1e9) {
    std::snprintf(text, sizeof text, "%.1f billion", parameters / 1e9);
  } else if (parameters >= 1e6) {
    std::snprintf(text, sizeof text, "%.1f million", parameters / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.0f", parameters);
  }
  return text;
}

/// describeByteCount's units, and TiB beyond them: configs that claim absurd sizes are the point.
std::string bytesText(double bytes) {
  constexpr double kTiB = 1024.0 * 1024 * 1024 * 1024;
  if (bytes < kTiB) return describeByteCount(static_cast<std::uint64_t>(bytes));
  char text[48];
  std::snprintf(text, sizeof text, "%.1f TiB", bytes / kTiB);
  return text;
}

}  // namespace

double ModelMemoryEstimate::bytes(ModelUse use) const {
  return parameters * (use == ModelUse::kTraining ? 16.0 : 4.0);
}

ModelMemoryEstimate estimateModelMemory(const BertConfig& c) {
  const double h = static_cast<double>(c.hidden_size);
  return fromParts({
      {static_cast<double>(c.vocab_size) * h,
       namedCount("vocab_size", c.vocab_size) + " × " + namedCount("hidden_size", c.hidden_size)},
      {static_cast<double>(c.max_position_embeddings + c.type_vocab_size) * h + 2 * h,
       namedCount("max_position_embeddings", c.max_position_embeddings) + " × " +
           namedCount("hidden_size", c.hidden_size)},
      {encoderParameters(c.num_hidden_layers, c.hidden_size, c.intermediate_size),
       layerFields(c.num_hidden_layers, c.hidden_size, c.intermediate_size)},
      {h * h + h + h * static_cast<double>(c.numLabels()) + static_cast<double>(c.numLabels()),
       namedCount("hidden_size", c.hidden_size) + " (pooler and classifier)"},
  });
}

ModelMemoryEstimate estimateModelMemory(const VitConfig& c) {
  const double h = static_cast<double>(c.hidden_size);
  const double patch = static_cast<double>(c.num_channels * c.patch_size * c.patch_size);
  return fromParts({
      {(patch + 1) * h + static_cast<double>(c.numPatches() + 2) * h,
       namedCount("image_size", c.image_size) + " / " + namedCount("patch_size", c.patch_size) +
           " × " + namedCount("hidden_size", c.hidden_size)},
      {encoderParameters(c.num_hidden_layers, c.hidden_size, c.intermediate_size),
       layerFields(c.num_hidden_layers, c.hidden_size, c.intermediate_size)},
      {2 * h + h * static_cast<double>(c.numLabels()) + static_cast<double>(c.numLabels()),
       namedCount("hidden_size", c.hidden_size) + " (final norm and classifier)"},
  });
}

Status checkModelFitsMemory(const ModelMemoryEstimate& estimate, ModelUse use,
                            std::optional<std::uint64_t> available_bytes,
                            const std::string& available_source, const std::string& config_path) {
  const double needed = estimate.bytes(use);
  if (!available_bytes || needed <= static_cast<double>(*available_bytes)) return {};
  const std::string needed_text = bytesText(needed);
  const std::string what = use == ModelUse::kTraining
                               ? "training it needs " + needed_text +
                                     " (float32 weights, gradients and two AdamW moments)"
                               : "it needs " + needed_text + " (float32 weights)";
  return Error{config_path + ": too large for this machine: " + estimate.largest_fields +
               " make a model of " + countText(estimate.parameters) + " parameters; " + what +
               ", but " + bytesText(static_cast<double>(*available_bytes)) + " are available (" +
               available_source + ")"};
}

}  // namespace ascope
