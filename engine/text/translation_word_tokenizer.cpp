#include "engine/text/translation_word_tokenizer.h"

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>

#include "engine/text/json_file.h"
#include "engine/text/whitespace_pre_tokenizer.h"

namespace ascope {
namespace {

constexpr const char* kType = "TranslationWordTokenizer";
constexpr int kVersion = 1;

std::vector<std::string> specialTokens() {
  return {std::begin(TranslationWordTokenizer::kSpecialTokens),
          std::end(TranslationWordTokenizer::kSpecialTokens)};
}

}  // namespace

TranslationWordTokenizer::TranslationWordTokenizer()
    : TranslationWordTokenizer(specialTokens(), kDefaultMinFrequency, false) {}

TranslationWordTokenizer::TranslationWordTokenizer(std::vector<std::string> vocab,
                                                   int min_frequency, bool lowercase)
    : vocab_(std::move(vocab)), min_frequency_(min_frequency), lowercase_(lowercase) {
  rebuildIndex();
}

// The index holds views into vocab_, so a copy must index its own tokens, not the original's.
TranslationWordTokenizer::TranslationWordTokenizer(const TranslationWordTokenizer& other)
    : vocab_(other.vocab_), min_frequency_(other.min_frequency_), lowercase_(other.lowercase_) {
  rebuildIndex();
}

TranslationWordTokenizer& TranslationWordTokenizer::operator=(
    const TranslationWordTokenizer& other) {
  if (this != &other) {
    vocab_ = other.vocab_;
    min_frequency_ = other.min_frequency_;
    lowercase_ = other.lowercase_;
    rebuildIndex();
  }
  return *this;
}

void TranslationWordTokenizer::rebuildIndex() {
  ids_.clear();
  ids_.reserve(vocab_.size());
  for (std::size_t i = 0; i < vocab_.size(); ++i) {
    ids_.emplace(vocab_[i], static_cast<std::int64_t>(i));
  }
}

TranslationWordTokenizer TranslationWordTokenizer::fit(
    const std::vector<std::string_view>& sentences, int min_frequency, bool lowercase) {
  std::unordered_map<std::string, std::size_t> counts;
  for (const std::string_view sentence : sentences) {
    for (std::string& token : WhitespacePreTokenizer::split(sentence, lowercase)) {
      ++counts[std::move(token)];
    }
  }
  std::vector<std::pair<std::string, std::size_t>> kept;
  const auto threshold = static_cast<std::size_t>(std::max(min_frequency, 1));
  for (auto& entry : counts) {
    if (entry.second >= threshold) kept.emplace_back(entry.first, entry.second);
  }
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> vocab = specialTokens();
  vocab.reserve(vocab.size() + kept.size());
  for (auto& entry : kept) vocab.push_back(std::move(entry.first));
  return TranslationWordTokenizer(std::move(vocab), min_frequency, lowercase);
}

std::vector<std::int64_t> TranslationWordTokenizer::encode(std::string_view text) const {
  std::vector<std::int64_t> ids;
  for (const std::string& token : WhitespacePreTokenizer::split(text, lowercase_)) {
    ids.push_back(idOf(token));
  }
  return ids;
}

std::vector<std::string> TranslationWordTokenizer::tokens(std::string_view text) const {
  return WhitespacePreTokenizer::split(text, lowercase_);
}

std::string TranslationWordTokenizer::decode(const std::vector<std::int64_t>& ids) const {
  std::string text;
  for (const std::int64_t id : ids) {
    if (id < static_cast<std::int64_t>(kSpecialCount) ||
        static_cast<std::size_t>(id) >= vocab_.size()) {
      continue;
    }
    if (!text.empty()) text.push_back(' ');
    text += vocab_[static_cast<std::size_t>(id)];
  }
  return text;
}

std::int64_t TranslationWordTokenizer::idOf(std::string_view token) const {
  const auto it = ids_.find(token);
  return it == ids_.end() ? kUnkId : it->second;
}

const std::string& TranslationWordTokenizer::tokenOf(std::int64_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= vocab_.size()) return vocab_[kUnkId];
  return vocab_[static_cast<std::size_t>(id)];
}

nlohmann::json TranslationWordTokenizer::toJson() const {
  return {{"type", kType},
          {"version", kVersion},
          {"lowercase", lowercase_},
          {"min_frequency", min_frequency_},
          {"vocab", vocab_}};
}

Expected<TranslationWordTokenizer> TranslationWordTokenizer::fromJson(const nlohmann::json& json,
                                                                      const std::string& name) {
  try {
    if (!json.is_object()) return Error{name + ": expected a JSON object"};
    const auto type = json.find("type");
    if (type == json.end() || !type->is_string() || type->get<std::string>() != kType) {
      return Error{name + ": \"type\" is not \"" + std::string(kType) + "\""};
    }
    const auto version = json.find("version");
    if (version == json.end() || !version->is_number_integer() ||
        version->get<std::int64_t>() != kVersion) {
      return Error{name + ": unsupported \"version\" (this build reads version " +
                   std::to_string(kVersion) + ")"};
    }
    const auto lowercase = json.find("lowercase");
    if (lowercase == json.end() || !lowercase->is_boolean()) {
      return Error{name + ": \"lowercase\" must be true or false"};
    }
    int min_frequency = kDefaultMinFrequency;
    const auto stored_min_frequency = json.find("min_frequency");
    if (stored_min_frequency != json.end()) {
      if (!stored_min_frequency->is_number_integer() ||
          stored_min_frequency->get<std::int64_t>() < 1 ||
          stored_min_frequency->get<std::int64_t>() > 1000000000) {
        return Error{name + ": \"min_frequency\" must be a positive integer"};
      }
      min_frequency = stored_min_frequency->get<int>();
    }
    const auto vocab_json = json.find("vocab");
    if (vocab_json == json.end() || !vocab_json->is_array()) {
      return Error{name + ": \"vocab\" must be an array of strings"};
    }
    std::vector<std::string> vocab;
    vocab.reserve(vocab_json->size());
    for (std::size_t i = 0; i < vocab_json->size(); ++i) {
      const nlohmann::json& token = (*vocab_json)[i];
      if (!token.is_string() || token.get_ref<const std::string&>().empty()) {
        return Error{name + ": vocab[" + std::to_string(i) + "] is not a non-empty string"};
      }
      if (i < kSpecialCount && token.get_ref<const std::string&>() != kSpecialTokens[i]) {
        return Error{name + ": vocab[" + std::to_string(i) + "] must be " + kSpecialTokens[i]};
      }
      vocab.push_back(token.get<std::string>());
    }
    if (vocab.size() < kSpecialCount) {
      return Error{name + ": \"vocab\" lacks the special tokens [UNK] [PAD] [SOS] [EOS]"};
    }
    TranslationWordTokenizer tokenizer(std::move(vocab), min_frequency, lowercase->get<bool>());
    if (tokenizer.ids_.size() != tokenizer.vocab_.size()) {
      return Error{name + ": \"vocab\" holds the same token twice"};
    }
    return tokenizer;
  } catch (const std::exception& e) {  // nlohmann's own checks, should ours miss a case
    return Error{name + ": " + e.what()};
  }
}

Expected<TranslationWordTokenizer> TranslationWordTokenizer::fromJsonText(std::string_view text,
                                                                          const std::string& name) {
  auto json = parseJson(text, name);
  if (!json) return Error{json.error()};
  return fromJson(*json, name);
}

Status TranslationWordTokenizer::save(const std::string& path) const {
  return writeJsonFile(path, toJson());
}

Expected<TranslationWordTokenizer> TranslationWordTokenizer::load(const std::string& path) {
  auto json = readJsonFile(path);
  if (!json) return Error{json.error()};
  return fromJson(*json, path);
}

}  // namespace ascope
