#include "engine/text/bert/bert_tokenizer_json.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>

namespace ascope {
namespace {

using nlohmann::json;

/// Ids above this are refused: they would size the id table from a number in the file.
constexpr std::int64_t kMaxId = std::numeric_limits<std::int32_t>::max();

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

std::string describeJson(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

/// The optional field `key` of `object`: nullptr when it is missing.
const json* member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

Status readBoolMember(const json& object, const char* key, const std::string& where, bool& out) {
  const json* value = member(object, key);
  if (value == nullptr) return {};
  if (!value->is_boolean()) {
    return Error{where + "." + key + " must be true or false, not " + describeJson(*value)};
  }
  out = value->get<bool>();
  return {};
}

Status readString(const json& object, const char* key, const std::string& where, std::string& out) {
  const json* value = member(object, key);
  if (value == nullptr) return {};
  if (!value->is_string()) return Error{where + "." + key + " must be a string"};
  out = value->get<std::string>();
  return {};
}

std::optional<std::int64_t> idValue(const json& value) {
  if (!value.is_number_integer()) return std::nullopt;
  if (value.is_number_unsigned()) {
    const auto id = value.get<std::uint64_t>();
    if (id > static_cast<std::uint64_t>(kMaxId)) return std::nullopt;
    return static_cast<std::int64_t>(id);
  }
  const auto id = value.get<std::int64_t>();
  if (id < 0 || id > kMaxId) return std::nullopt;
  return id;
}

Status readModel(const json& model, const std::string& name, BertTokenizerSettings& settings,
                 std::unordered_map<std::string, std::int64_t>& ids) {
  const std::string where = name + ": model";
  if (!model.is_object()) return Error{where + " must be an object"};
  if (const json* type = member(model, "type")) {
    if (!type->is_string() || type->get<std::string>() != "WordPiece") {
      return Error{where + ".type is " + describeJson(*type) +
                   "; only WordPiece models (BERT) are supported"};
    }
  }
  const json* vocab = member(model, "vocab");
  if (vocab == nullptr || !vocab->is_object()) {
    return Error{where + ".vocab must be an object of token: id"};
  }
  for (const auto& [token, id] : vocab->items()) {
    const std::optional<std::int64_t> value = idValue(id);
    if (!value) {
      return Error{where + ".vocab: " + quoted(token) + " has id " + describeJson(id) +
                   ", not a non-negative integer"};
    }
    ids.emplace(token, *value);
  }
  if (Status s = readString(model, "unk_token", where, settings.unk_token); !s) return s;
  if (Status s =
          readString(model, "continuing_subword_prefix", where, settings.continuing_subword_prefix);
      !s) {
    return s;
  }
  if (const json* max_chars = member(model, "max_input_chars_per_word")) {
    const std::optional<std::int64_t> value = idValue(*max_chars);
    if (!value) {
      return Error{where + ".max_input_chars_per_word must be a non-negative integer, not " +
                   describeJson(*max_chars)};
    }
    settings.max_input_chars_per_word = static_cast<std::size_t>(*value);
  }
  return {};
}

Status readNormalizer(const json* normalizer, const std::string& name,
                      BertNormalization& normalization) {
  const std::string where = name + ": normalizer";
  if (normalizer == nullptr || normalizer->is_null()) {
    normalization = BertNormalization{false, false, false, false};
    return {};
  }
  if (!normalizer->is_object()) return Error{where + " must be an object or null"};
  const json* type = member(*normalizer, "type");
  if (type == nullptr || !type->is_string() || type->get<std::string>() != "BertNormalizer") {
    return Error{where + ".type is " + (type ? describeJson(*type) : std::string("missing")) +
                 "; only BertNormalizer is supported"};
  }
  normalization = BertNormalization{};
  if (Status s = readBoolMember(*normalizer, "clean_text", where, normalization.clean_text); !s)
    return s;
  if (Status s = readBoolMember(*normalizer, "handle_chinese_chars", where,
                                normalization.handle_chinese_chars);
      !s) {
    return s;
  }
  if (Status s = readBoolMember(*normalizer, "lowercase", where, normalization.lowercase); !s)
    return s;
  if (const json* strip = member(*normalizer, "strip_accents"); strip && !strip->is_null()) {
    if (!strip->is_boolean()) {
      return Error{where + ".strip_accents must be true, false or null, not " +
                   describeJson(*strip)};
    }
    normalization.strip_accents = strip->get<bool>();
  }
  return {};
}

Status readPreTokenizer(const json* pre_tokenizer, const std::string& name) {
  const json* type =
      pre_tokenizer && pre_tokenizer->is_object() ? member(*pre_tokenizer, "type") : nullptr;
  if (type == nullptr || !type->is_string() || type->get<std::string>() != "BertPreTokenizer") {
    return Error{name + ": pre_tokenizer is " +
                 (pre_tokenizer ? describeJson(*pre_tokenizer) : std::string("missing")) +
                 "; only BertPreTokenizer is supported"};
  }
  return {};
}

/// The special token name of a template item {"SpecialToken": {"id": "[CLS]", …}}.
std::optional<std::string> templateSpecialToken(const json& item) {
  if (!item.is_object()) return std::nullopt;
  const json* special = member(item, "SpecialToken");
  if (special == nullptr || !special->is_object()) return std::nullopt;
  const json* id = member(*special, "id");
  if (id == nullptr || !id->is_string()) return std::nullopt;
  return id->get<std::string>();
}

Status readPostProcessor(const json* processor, const std::string& name,
                         BertTokenizerSettings& settings) {
  if (processor == nullptr || processor->is_null()) return {};
  const std::string where = name + ": post_processor";
  const json* type = processor->is_object() ? member(*processor, "type") : nullptr;
  const std::string type_name = type && type->is_string() ? type->get<std::string>() : "";
  if (type_name == "BertProcessing") {
    for (const auto& [key, out] :
         {std::pair{"cls", &settings.cls_token}, std::pair{"sep", &settings.sep_token}}) {
      const json* pair = member(*processor, key);
      if (pair == nullptr || !pair->is_array() || pair->empty() || !(*pair)[0].is_string()) {
        return Error{where + "." + key + " must be [token, id]"};
      }
      *out = (*pair)[0].get<std::string>();
    }
    return {};
  }
  if (type_name == "TemplateProcessing") {
    const json* single = member(*processor, "single");
    std::optional<std::string> cls;
    std::optional<std::string> sep;
    if (single && single->is_array() && single->size() == 3) {
      cls = templateSpecialToken((*single)[0]);
      sep = templateSpecialToken((*single)[2]);
    }
    if (!cls || !sep) {
      return Error{where + ".single: only the template [CLS] $A [SEP] is supported"};
    }
    settings.cls_token = *cls;
    settings.sep_token = *sep;
    return {};
  }
  return Error{where + ".type is " + (type ? describeJson(*type) : std::string("missing")) +
               "; only TemplateProcessing and BertProcessing are supported"};
}

Status readAddedTokens(const json* added, const std::string& name, BertTokenizerSettings& settings,
                       std::unordered_map<std::string, std::int64_t>& ids) {
  if (added == nullptr || added->is_null()) return {};
  if (!added->is_array()) return Error{name + ": added_tokens must be an array"};
  for (std::size_t i = 0; i < added->size(); ++i) {
    const json& token = (*added)[i];
    const std::string where = name + ": added_tokens[" + std::to_string(i) + "]";
    if (!token.is_object()) return Error{where + " must be an object"};
    const json* content = member(token, "content");
    const json* id = member(token, "id");
    if (content == nullptr || !content->is_string() || content->get<std::string>().empty()) {
      return Error{where + ".content must be a non-empty string"};
    }
    const std::optional<std::int64_t> value = id ? idValue(*id) : std::nullopt;
    if (!value) return Error{where + ".id must be a non-negative integer"};
    const std::string text = content->get<std::string>();
    const auto [it, inserted] = ids.emplace(text, *value);
    if (!inserted && it->second != *value) {
      return Error{where + ": " + quoted(text) + " has id " + std::to_string(*value) +
                   " but model.vocab gives it " + std::to_string(it->second)};
    }
    settings.added_tokens.push_back(text);
  }
  return {};
}

/// ids → vocab[id], each id from 0 to size - 1 used exactly once.
Expected<std::vector<std::string>> tokensById(
    const std::unordered_map<std::string, std::int64_t>& ids, const std::string& name) {
  const std::size_t count = ids.size();
  std::vector<const std::string*> by_id(count, nullptr);
  for (const auto& [token, id] : ids) {
    const auto index = static_cast<std::size_t>(id);
    if (index >= count) {
      return Error{name + ": model.vocab: " + quoted(token) + " has id " + std::to_string(id) +
                   ", past the end of the " + std::to_string(count) +
                   " tokens (ids must run from 0 without gaps)"};
    }
    if (by_id[index] != nullptr) {
      const bool in_order = *by_id[index] < token;
      return Error{name + ": model.vocab: " + quoted(in_order ? *by_id[index] : token) + " and " +
                   quoted(in_order ? token : *by_id[index]) + " both have id " +
                   std::to_string(id)};
    }
    by_id[index] = &token;
  }
  std::vector<std::string> vocab;
  vocab.reserve(count);
  for (const std::string* token : by_id) vocab.push_back(*token);
  return vocab;
}

}  // namespace

Expected<BertTokenizerDefinition> parseBertTokenizerJson(const json& root,
                                                         const std::string& name) {
  if (!root.is_object()) return Error{name + ": not a JSON object"};
  BertTokenizerDefinition definition;
  BertTokenizerSettings& settings = definition.settings;
  std::unordered_map<std::string, std::int64_t> ids;

  const json* model = member(root, "model");
  if (model == nullptr) return Error{name + ": no \"model\""};
  if (Status s = readModel(*model, name, settings, ids); !s) return Error{s.error()};
  if (Status s = readNormalizer(member(root, "normalizer"), name, settings.normalization); !s) {
    return Error{s.error()};
  }
  if (Status s = readPreTokenizer(member(root, "pre_tokenizer"), name); !s) return Error{s.error()};
  if (Status s = readPostProcessor(member(root, "post_processor"), name, settings); !s) {
    return Error{s.error()};
  }
  if (const json* padding = member(root, "padding"); padding && padding->is_object()) {
    if (Status s = readString(*padding, "pad_token", name + ": padding", settings.pad_token); !s) {
      return Error{s.error()};
    }
  }
  if (Status s = readAddedTokens(member(root, "added_tokens"), name, settings, ids); !s) {
    return Error{s.error()};
  }
  auto vocab = tokensById(ids, name);
  if (!vocab) return Error{vocab.error()};
  definition.vocab = std::move(*vocab);
  return definition;
}

}  // namespace ascope
