#include "engine/text/bert/bert_tokenizer_config.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace ascope {
namespace {

using nlohmann::json;

/// Hugging Face writes int(1e30) (VERY_LARGE_INTEGER) for "no limit"; anything this large means
/// the same here.
constexpr double kNoLimitFrom = 1e15;

std::string describe(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

const json* field(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

Status readBool(const json& root, const char* key, const std::string& name, bool& out) {
  const json* value = field(root, key);
  if (value == nullptr) return {};
  if (!value->is_boolean()) {
    return Error{name + ": " + key + " must be true or false, not " + describe(*value)};
  }
  out = value->get<bool>();
  return {};
}

/// A token given as "[MASK]" or as {"__type": "AddedToken", "content": "[MASK]", …}.
std::optional<std::string> tokenText(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_object()) {
    const auto content = value.find("content");
    if (content != value.end() && content->is_string()) return content->get<std::string>();
  }
  return std::nullopt;
}

Status readTokenList(const json& root, const char* key, const std::string& name,
                     std::vector<std::string>& out) {
  const json* list = field(root, key);
  if (list == nullptr) return {};
  if (!list->is_array()) return Error{name + ": " + key + " must be a list of tokens or null"};
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::optional<std::string> text = tokenText((*list)[i]);
    if (!text || text->empty()) {
      return Error{name + ": " + key + "[" + std::to_string(i) + "] must be a non-empty token"};
    }
    out.push_back(*text);
  }
  return {};
}

Status readModelMaxLength(const json& root, const std::string& name,
                          std::optional<std::size_t>& out) {
  const json* value = field(root, "model_max_length");
  if (value == nullptr) return {};
  if (!value->is_number() || value->get<double>() < 1) {
    return Error{name + ": model_max_length must be a positive number, not " + describe(*value)};
  }
  if (value->get<double>() >= kNoLimitFrom) {
    out.reset();
  } else if (value->is_number_integer()) {
    out = value->get<std::size_t>();
  } else {
    out = static_cast<std::size_t>(value->get<double>());
  }
  return {};
}

}  // namespace

Status applyBertTokenizerConfig(const json& root, const std::string& name,
                                BertTokenizerSettings& settings) {
  if (!root.is_object()) return Error{name + ": not a JSON object"};
  BertNormalization& normalization = settings.normalization;
  if (Status s = readBool(root, "do_lower_case", name, normalization.lowercase); !s) return s;
  if (Status s = readBool(root, "tokenize_chinese_chars", name, normalization.handle_chinese_chars);
      !s) {
    return s;
  }
  if (const auto strip = root.find("strip_accents"); strip != root.end()) {
    if (strip->is_null()) {
      normalization.strip_accents.reset();
    } else if (strip->is_boolean()) {
      normalization.strip_accents = strip->get<bool>();
    } else {
      return Error{name + ": strip_accents must be true, false or null, not " + describe(*strip)};
    }
  }
  bool basic = true;
  if (Status s = readBool(root, "do_basic_tokenize", name, basic); !s) return s;
  if (!basic) return Error{name + ": do_basic_tokenize false is not supported"};
  if (Status s = readModelMaxLength(root, name, settings.model_max_length); !s) return s;

  const std::pair<const char*, std::string*> specials[] = {{"unk_token", &settings.unk_token},
                                                           {"sep_token", &settings.sep_token},
                                                           {"pad_token", &settings.pad_token},
                                                           {"cls_token", &settings.cls_token},
                                                           {"mask_token", &settings.mask_token}};
  for (const auto& [key, out] : specials) {
    const json* value = field(root, key);
    if (value == nullptr) continue;
    const std::optional<std::string> text = tokenText(*value);
    if (!text || text->empty()) {
      return Error{name + ": " + key + " must be a token, not " + describe(*value)};
    }
    *out = *text;
  }
  if (Status s = readTokenList(root, "never_split", name, settings.never_split); !s) return s;
  if (Status s = readTokenList(root, "additional_special_tokens", name, settings.added_tokens);
      !s) {
    return s;
  }
  if (const json* decoder = field(root, "added_tokens_decoder")) {
    if (!decoder->is_object()) return Error{name + ": added_tokens_decoder must be an object"};
    for (const auto& [id, token] : decoder->items()) {
      const std::optional<std::string> text = tokenText(token);
      if (!text || text->empty()) {
        std::string message = name + ": added_tokens_decoder[\"";
        message += id;
        message += "\"] must be a non-empty token";
        return Error{message};
      }
      settings.added_tokens.push_back(*text);
    }
  }
  return {};
}

}  // namespace ascope
