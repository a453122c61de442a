#include "engine/download/models/model_file_plan.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

namespace ascope {
namespace {

// Encoders whose tokenizer ships as tokenizer.json (older uploads: a WordPiece vocab.txt).
constexpr std::array<const char*, 7> kTextModelTypes = {
    "bert", "distilbert", "roberta", "xlm-roberta", "albert", "electra", "camembert"};
// Image encoders whose preprocessor_config.json gives the input size and normalisation.
constexpr std::array<const char*, 2> kImageModelTypes = {"vit", "deit"};

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
          "which AttentionScope may not be able to load"};
}

}  // namespace

ModelFilePlan::ModelFilePlan(std::string model_type, std::vector<HubFileChoice> files)
    : model_type_(std::move(model_type)), files_(std::move(files)) {}

Expected<ModelFilePlan> ModelFilePlan::fromConfig(const std::string& config_json) {
  const nlohmann::json config = nlohmann::json::parse(config_json, nullptr, false);
  if (config.is_discarded() || !config.is_object()) {
    return Error{"config.json: not a JSON object"};
  }
  const auto type = config.find("model_type");
  if (type == config.end() || !type->is_string()) {
    return Error{"config.json: no \"model_type\" string, so the model's kind is unknown"};
  }
  const std::string model_type = type->get<std::string>();
  if (isOneOf(model_type, kTextModelTypes)) {
    return ModelFilePlan(model_type, {{{"tokenizer.json", "vocab.txt"}, true, ""},
                                      {{"tokenizer_config.json"}, false, ""},
                                      {{"special_tokens_map.json"}, false, ""},
                                      weights()});
  }
  if (isOneOf(model_type, kImageModelTypes)) {
    return ModelFilePlan(model_type, {{{"preprocessor_config.json"}, true, ""}, weights()});
  }
  return Error{"config.json: model_type \"" + model_type +
               "\" is not a kind of model AttentionScope imports (known: " + knownTypes() + ")"};
}

}  // namespace ascope
