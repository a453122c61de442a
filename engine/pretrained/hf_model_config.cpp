#include "engine/pretrained/hf_model_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <utility>

#include "engine/core/json_file.h"
#include "engine/core/json_limits.h"
#include "engine/core/regular_file.h"
#include "engine/vocabulary/config_checks.h"

namespace ascope {
namespace {

using nlohmann::json;
namespace checks = config_checks;

// Far beyond any published checkpoint, low enough that products of them cannot overflow.
constexpr int64_t kMaxHfWidth = 1 << 16;
constexpr int64_t kMaxHfLayers = 1 << 10;
constexpr int64_t kMaxHfVocabulary = 1 << 22;
constexpr int64_t kMaxPositions = 1 << 16;
constexpr int64_t kMaxTokenTypes = 1 << 10;
constexpr int64_t kMaxLabels = 1 << 16;
constexpr int64_t kMaxHfImageSide = 1 << 13;
constexpr int64_t kMaxChannels = 64;

const char* const kHiddenActivations[] = {"gelu", "gelu_new", "gelu_pytorch_tanh", "relu"};

std::string typeName(const json& value) {
  return value.type_name();
}

/// Reads optional fields of one config.json object, keeping the first error. A field that is
/// absent or null keeps the value it had: transformers' default, set by the config struct.
class ConfigFields {
 public:
  explicit ConfigFields(const json& object) : object_(object) {}

  void integer(const char* field, int64_t* out) {
    const json* value = find(field);
    if (value == nullptr) return;
    if (!value->is_number_integer()) return fail(field, "an integer", *value);
    if (value->is_number_unsigned() &&
        value->get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<int64_t>::max())) {
      return fail(field, "an integer in range", *value);
    }
    *out = value->get<int64_t>();
  }

  void real(const char* field, double* out) {
    const json* value = find(field);
    if (value == nullptr) return;
    if (!value->is_number()) return fail(field, "a number", *value);
    *out = value->get<double>();
  }

  void text(const char* field, std::string* out) {
    const json* value = find(field);
    if (value == nullptr) return;
    if (!value->is_string()) return fail(field, "a string", *value);
    *out = value->get<std::string>();
  }

  void boolean(const char* field, bool* out) {
    const json* value = find(field);
    if (value == nullptr) return;
    if (!value->is_boolean()) return fail(field, "true or false", *value);
    *out = value->get<bool>();
  }

  /// id2label ({"0": "NEG", "1": "POS"}), else num_labels (or the older _num_labels) names
  /// LABEL_0 … LABEL_{n-1}, else `labels` keeps its default.
  void labels(std::vector<std::string>* labels) {
    if (const json* map = find("id2label")) return readId2Label(*map, labels);
    int64_t count = -1;
    integer("_num_labels", &count);
    integer("num_labels", &count);
    if (!error_.empty() || count < 0) return;
    if (Status s = checks::inRange("num_labels", count, 1, kMaxLabels); !s.ok()) {
      error_ = s.error();
      return;
    }
    labels->clear();
    for (int64_t i = 0; i < count; ++i) labels->push_back("LABEL_" + std::to_string(i));
  }

  /// Refuses a present field whose value is not `supported`: settings that change the
  /// computation in ways these models do not reproduce.
  void requireText(const char* field, const std::string& supported) {
    std::string value = supported;
    text(field, &value);
    if (error_.empty() && value != supported) {
      error_ =
          std::string(field) + " \"" + value + "\" is not supported (only \"" + supported + "\")";
    }
  }

  void requireFalse(const char* field, const std::string& why) {
    bool value = false;
    boolean(field, &value);
    if (error_.empty() && value) error_ = std::string(field) + " true is not supported: " + why;
  }

  /// pruned_heads ({"layer": [heads]}) leaves layers with fewer heads than the config says.
  void requireNoPrunedHeads() {
    const json* value = find("pruned_heads");
    if (value == nullptr || !error_.empty()) return;
    if (!value->is_object()) return fail("pruned_heads", "an object", *value);
    for (const auto& item : value->items()) {
      if (!item.value().is_array() || !item.value().empty()) {
        error_ = "pruned_heads is not supported (layer " + item.key() + " has pruned heads)";
        return;
      }
    }
  }

  const std::string& error() const { return error_; }

 private:
  const json* find(const char* field) const {
    const auto it = object_.find(field);
    if (it == object_.end() || it->is_null()) return nullptr;
    return &*it;
  }

  void fail(const char* field, const char* expected, const json& value) {
    if (!error_.empty()) return;
    error_ = std::string(field) + " must be " + expected + ", got " + typeName(value) + " " +
             value.dump(-1, ' ', false, json::error_handler_t::replace);
  }

  void readId2Label(const json& map, std::vector<std::string>* labels) {
    if (!error_.empty()) return;
    if (!map.is_object()) return fail("id2label", "an object", map);
    const auto count = static_cast<int64_t>(map.size());
    if (Status s = checks::inRange("the number of id2label entries", count, 1, kMaxLabels);
        !s.ok()) {
      error_ = s.error();
      return;
    }
    std::vector<std::string> ordered(static_cast<size_t>(count));
    std::vector<bool> seen(static_cast<size_t>(count), false);
    for (const auto& item : map.items()) {
      const std::string& key = item.key();
      int64_t id = -1;
      if (!key.empty() && key.size() <= 9 &&
          std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        id = std::stoll(key);
      }
      if (id < 0 || id >= count || seen[static_cast<size_t>(id)]) {
        error_ = "id2label key \"" + key + "\" is not one of the class ids 0 … " +
                 std::to_string(count - 1);
        return;
      }
      if (!item.value().is_string()) {
        error_ = "id2label[\"" + key + "\"] must be a string, got " + typeName(item.value());
        return;
      }
      seen[static_cast<size_t>(id)] = true;
      ordered[static_cast<size_t>(id)] = item.value().get<std::string>();
    }
    *labels = std::move(ordered);
  }

  const json& object_;
  std::string error_;
};

Status checkHiddenAct(const std::string& value) {
  for (const char* name : kHiddenActivations) {
    if (value == name) return {};
  }
  return Error{"hidden_act \"" + value +
               "\" is not supported (gelu, gelu_new, gelu_pytorch_tanh or relu)"};
}

Status checkEncoder(int64_t hidden, int64_t layers, int64_t heads, int64_t intermediate,
                    const std::string& act, double hidden_dropout, double attention_dropout,
                    double eps) {
  return checks::firstError({
      checks::inRange("hidden_size", hidden, 1, kMaxHfWidth),
      checks::inRange("num_hidden_layers", layers, 1, kMaxHfLayers),
      checks::inRange("num_attention_heads", heads, 1, kMaxHfWidth),
      checks::divisible("hidden_size", hidden, "num_attention_heads", heads),
      checks::inRange("intermediate_size", intermediate, 1, kMaxHfWidth * 4),
      checkHiddenAct(act),
      checks::probability("hidden_dropout_prob", hidden_dropout),
      checks::probability("attention_probs_dropout_prob", attention_dropout),
      checks::realInRange("layer_norm_eps", eps, 1e-30, 1.0),
  });
}

/// The parsed object, or an error for text that is not a JSON object of the wanted model type.
Expected<json> parseObject(const std::string& text, const std::string& source,
                           const std::string& model_type) {
  auto parsed = parseJson(text, source, JsonLimits{kMaxConfigJsonBytes, 32});
  if (!parsed) return Error{parsed.error()};
  if (!parsed->is_object()) return Error{source + ": not a JSON object"};
  const auto it = parsed->find("model_type");
  if (it == parsed->end()) {
    return Error{source + ": model_type is missing (a " + model_type + " config.json has one)"};
  }
  if (!it->is_string() || it->get<std::string>() != model_type) {
    return Error{source + ": model_type " + it->dump() + " is not \"" + model_type + "\""};
  }
  return std::move(parsed.value());
}

template <typename Config>
Expected<Config> finish(Config config, const ConfigFields& fields, const std::string& source) {
  if (!fields.error().empty()) return Error{source + ": " + fields.error()};
  if (Status s = config.validate(); !s.ok()) return Error{source + ": " + s.error()};
  return config;
}

Expected<std::string> readConfigText(const std::string& path) {
  auto bytes = readRegularFile(path, kMaxConfigJsonBytes);
  if (!bytes) return Error{bytes.error()};
  return std::move(bytes.value());
}

}  // namespace

Status BertConfig::validate() const {
  return checks::firstError({
      checks::inRange("vocab_size", vocab_size, 1, kMaxHfVocabulary),
      checkEncoder(hidden_size, num_hidden_layers, num_attention_heads, intermediate_size,
                   hidden_act, hidden_dropout_prob, attention_probs_dropout_prob, layer_norm_eps),
      checks::probability("classifier_dropout", classifier_dropout),
      checks::inRange("max_position_embeddings", max_position_embeddings, 1, kMaxPositions),
      checks::inRange("type_vocab_size", type_vocab_size, 1, kMaxTokenTypes),
      checks::inRange("pad_token_id", pad_token_id, 0, vocab_size - 1),
      checks::inRange("the number of labels", numLabels(), 1, kMaxLabels),
  });
}

int64_t VitConfig::numPatches() const {
  const int64_t side = patch_size > 0 ? image_size / patch_size : 0;
  return side * side;
}

Status VitConfig::validate() const {
  return checks::firstError({
      checkEncoder(hidden_size, num_hidden_layers, num_attention_heads, intermediate_size,
                   hidden_act, hidden_dropout_prob, attention_probs_dropout_prob, layer_norm_eps),
      checks::inRange("image_size", image_size, 1, kMaxHfImageSide),
      checks::inRange("patch_size", patch_size, 1, image_size),
      checks::inRange("num_channels", num_channels, 1, kMaxChannels),
      checks::inRange("the number of labels", numLabels(), 1, kMaxLabels),
  });
}

Expected<BertConfig> parseBertConfig(const std::string& json_text, const std::string& source) {
  auto object = parseObject(json_text, source, "bert");
  if (!object) return Error{object.error()};
  BertConfig config;
  ConfigFields fields(*object);
  fields.integer("vocab_size", &config.vocab_size);
  fields.integer("hidden_size", &config.hidden_size);
  fields.integer("num_hidden_layers", &config.num_hidden_layers);
  fields.integer("num_attention_heads", &config.num_attention_heads);
  fields.integer("intermediate_size", &config.intermediate_size);
  fields.text("hidden_act", &config.hidden_act);
  fields.real("hidden_dropout_prob", &config.hidden_dropout_prob);
  fields.real("attention_probs_dropout_prob", &config.attention_probs_dropout_prob);
  config.classifier_dropout = config.hidden_dropout_prob;
  fields.real("classifier_dropout", &config.classifier_dropout);
  fields.integer("max_position_embeddings", &config.max_position_embeddings);
  fields.integer("type_vocab_size", &config.type_vocab_size);
  fields.real("layer_norm_eps", &config.layer_norm_eps);
  fields.integer("pad_token_id", &config.pad_token_id);
  fields.labels(&config.labels);
  fields.requireText("position_embedding_type", "absolute");
  fields.requireFalse("is_decoder", "only the encoder (bidirectional attention) is built");
  fields.requireFalse("add_cross_attention", "only the encoder is built");
  fields.requireNoPrunedHeads();
  return finish(std::move(config), fields, source);
}

Expected<VitConfig> parseVitConfig(const std::string& json_text, const std::string& source) {
  auto object = parseObject(json_text, source, "vit");
  if (!object) return Error{object.error()};
  VitConfig config;
  ConfigFields fields(*object);
  fields.integer("hidden_size", &config.hidden_size);
  fields.integer("num_hidden_layers", &config.num_hidden_layers);
  fields.integer("num_attention_heads", &config.num_attention_heads);
  fields.integer("intermediate_size", &config.intermediate_size);
  fields.text("hidden_act", &config.hidden_act);
  fields.real("hidden_dropout_prob", &config.hidden_dropout_prob);
  fields.real("attention_probs_dropout_prob", &config.attention_probs_dropout_prob);
  fields.real("layer_norm_eps", &config.layer_norm_eps);
  fields.integer("image_size", &config.image_size);
  fields.integer("patch_size", &config.patch_size);
  fields.integer("num_channels", &config.num_channels);
  fields.boolean("qkv_bias", &config.qkv_bias);
  fields.labels(&config.labels);
  fields.requireNoPrunedHeads();
  return finish(std::move(config), fields, source);
}

Expected<BertConfig> readBertConfig(const std::string& path) {
  auto text = readConfigText(path);
  if (!text) return Error{text.error()};
  return parseBertConfig(*text, path);
}

Expected<VitConfig> readVitConfig(const std::string& path) {
  auto text = readConfigText(path);
  if (!text) return Error{text.error()};
  return parseVitConfig(*text, path);
}

}  // namespace ascope
