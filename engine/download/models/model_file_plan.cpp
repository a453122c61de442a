#include "engine/download/models/model_file_plan.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "engine/core/json_limits.h"
#include "engine/download/server_text.h"

namespace ascope {
namespace {

// Encoders whose tokenizer ships as tokenizer.json (older uploads: a WordPiece vocab.txt).
constexpr std::array<const char*, 7> kTextModelTypes = {
    "bert", "distilbert", "roberta", "xlm-roberta", "albert", "electra", "camembert"};
// Image encoders whose preprocessor_config.json gives the input size and normalisation.
constexpr std::array<const char*, 2> kImageModelTypes = {"vit", "deit"};
/// A model's config.json nests a few levels (id2label, a vision or text sub-config).
constexpr std::size_t kMaxSettingsDepth = 32;

template <typename List>
bool isOneOf(const std::string& value, const List& list) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string knownTypes() {
  std::string text;
  for (const char* type : kTextModelTypes) text += std::string(text.empty() ? "" : ", ") + type;
  for (const char* type : kImageModelTypes) text += std::string(", ") + type;
  return text;
}

HubFileChoice weights() {
  return {{"model.safetensors", "pytorch_model.bin"},
          true,
          "the hub has no model.safetensors for this model; fetching pytorch_model.bin instead, "
          "which AttentionScope may not be able to load",
          kMaxWeightsFileBytes,
          true};
}

std::vector<HubFileChoice> textModelFiles() {
  return {{{"tokenizer.json", "vocab.txt"}, true, "", kMaxTokenizerFileBytes},
          {{"tokenizer_config.json"}, false, "", kMaxTokenizerFileBytes},
          {{"special_tokens_map.json"}, false, "", kMaxTokenizerFileBytes},
          weights()};
}

std::vector<HubFileChoice> imageModelFiles() {
  return {{{"preprocessor_config.json"}, true, "", kMaxSettingsFileBytes}, weights()};
}

}  // namespace

ModelFilePlan::ModelFilePlan(std::string model_type, std::vector<HubFileChoice> files)
    : model_type_(std::move(model_type)), files_(std::move(files)) {}

HubFileChoice ModelFilePlan::config() {
  return {{"config.json"}, true, "", kMaxSettingsFileBytes};
}

std::vector<std::string> ModelFilePlan::allModelFileNames() {
  std::vector<std::string> names = config().candidates;
  for (const auto& files : {textModelFiles(), imageModelFiles()}) {
    for (const HubFileChoice& choice : files) {
      for (const std::string& name : choice.candidates) {
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      }
    }
  }
  return names;
}

Expected<ModelFilePlan> ModelFilePlan::fromConfig(const std::string& config_json) {
  // Depth-limited first: the file comes from a server, and nlohmann recurses once per level.
  if (Status limits =
          checkJsonLimits(config_json, "config.json",
                          {static_cast<std::uint64_t>(kMaxSettingsFileBytes), kMaxSettingsDepth});
      !limits) {
    return Error{limits.error()};
  }
  const nlohmann::json config = nlohmann::json::parse(config_json, nullptr, false);
  if (config.is_discarded() || !config.is_object()) {
    return Error{"config.json: not a JSON object"};
  }
  const auto type = config.find("model_type");
  if (type == config.end() || !type->is_string()) {
    return Error{"config.json: no \"model_type\" string, so the model's kind is unknown"};
  }
  const std::string model_type = type->get<std::string>();
  if (isOneOf(model_type, kTextModelTypes)) return ModelFilePlan(model_type, textModelFiles());
  if (isOneOf(model_type, kImageModelTypes)) return ModelFilePlan(model_type, imageModelFiles());
  return Error{"config.json: model_type \"" + printableServerText(model_type) +
               "\" is not a kind of model AttentionScope imports (known: " + knownTypes() + ")"};
}

}  // namespace ascope
