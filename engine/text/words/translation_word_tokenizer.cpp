#include "engine/text/words/translation_word_tokenizer.h"

#include <iterator>
#include <nlohmann/json.hpp>
#include <utility>

#include "engine/core/json_file.h"
#include "engine/text/words/whitespace_pre_tokenizer.h"

namespace ascope {
namespace {

constexpr const char* kLowercaseKey = "lowercase";
constexpr const char* kSpacingKey = "spacing";

const WordVocabularyLayout& translationLayout() {
  static const WordVocabularyLayout kLayout = [] {
    WordVocabularyLayout layout;
    layout.first_id = 0;
    layout.special_tokens = {std::begin(TranslationWordTokenizer::kSpecialTokens),
                             std::end(TranslationWordTokenizer::kSpecialTokens)};
    layout.unknown_id = TranslationWordTokenizer::kUnkId;
    layout.default_min_frequency = TranslationWordTokenizer::kDefaultMinFrequency;
    layout.type = "TranslationWordTokenizer";
    layout.version = 1;
    layout.flags = {kLowercaseKey};
    layout.min_frequency_key = "min_frequency";
    layout.words_key = "vocab";
    layout.word_noun = "token";
    layout.word_rule = "a non-empty string";
    return layout;
  }();
  return kLayout;
}

}  // namespace

TranslationWordTokenizer::TranslationWordTokenizer()
    : TranslationWordTokenizer(WordVocabulary::empty(translationLayout(), kDefaultMinFrequency),
                               false, {}) {}

TranslationWordTokenizer::TranslationWordTokenizer(WordVocabulary vocabulary, bool lowercase,
                                                   TokenSpacing spacing)
    : vocabulary_(std::move(vocabulary)), lowercase_(lowercase), spacing_(std::move(spacing)) {}

TranslationWordTokenizer TranslationWordTokenizer::fit(
    const std::vector<std::string_view>& sentences, int min_frequency, bool lowercase) {
  WordCounts counts;
  for (const std::string_view sentence : sentences) {
    for (const std::string& token : WhitespacePreTokenizer::split(sentence, lowercase)) {
      counts.add(token);
    }
  }
  TokenSpacing spacing = TokenSpacing::learn(sentences, [lowercase](std::string_view sentence) {
    return WhitespacePreTokenizer::split(sentence, lowercase);
  });
  return TranslationWordTokenizer(WordVocabulary::fit(counts, min_frequency, translationLayout()),
                                  lowercase, std::move(spacing));
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
        static_cast<std::size_t>(id) >= vocabulary_.size()) {
      continue;
    }
    if (!text.empty()) text.push_back(' ');
    text += vocabulary_.wordOf(id);
  }
  return text;
}

std::string TranslationWordTokenizer::detokenize(const std::vector<std::int64_t>& ids) const {
  std::vector<std::string> words;
  for (const std::int64_t id : ids) {
    if (id < static_cast<std::int64_t>(kSpecialCount) ||
        static_cast<std::size_t>(id) >= vocabulary_.size()) {
      continue;
    }
    words.push_back(vocabulary_.wordOf(id));
  }
  return spacing_.join(words);
}

nlohmann::json TranslationWordTokenizer::toJson() const {
  nlohmann::json json = vocabulary_.toJson(translationLayout());
  json[kLowercaseKey] = lowercase_;
  // Unlearned spacing (null) is not written: read back, it would be an empty learned one.
  if (nlohmann::json spacing = spacing_.toJson(); !spacing.is_null()) json[kSpacingKey] = spacing;
  return json;
}

Expected<TranslationWordTokenizer> TranslationWordTokenizer::fromJson(const nlohmann::json& json,
                                                                      const std::string& name) {
  // WordVocabulary::fromJson checks the whole object, "lowercase" included (it is in the layout's
  // flags), so reading it here cannot throw.
  auto vocabulary = WordVocabulary::fromJson(json, name, translationLayout());
  if (!vocabulary) return Error{vocabulary.error()};
  const auto stored = json.find(kSpacingKey);
  Expected<TokenSpacing> spacing =
      TokenSpacing::fromJson(stored == json.end() ? nlohmann::json() : *stored, name);
  if (!spacing) return Error{spacing.error()};
  return TranslationWordTokenizer(std::move(*vocabulary), json.at(kLowercaseKey).get<bool>(),
                                  std::move(*spacing));
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
