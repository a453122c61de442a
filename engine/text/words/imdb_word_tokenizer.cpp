#include "engine/text/words/imdb_word_tokenizer.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "engine/core/json_file.h"
#include "engine/text/words/imdb_word_splitter.h"

namespace ascope {
namespace {

// Non-empty is WordVocabulary's own check.
bool isVocabularyWord(std::string_view word) {
  return std::all_of(word.begin(), word.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
}

const WordVocabularyLayout& imdbLayout() {
  static const WordVocabularyLayout kLayout = [] {
    WordVocabularyLayout layout;
    layout.first_id = 1;
    layout.unknown_id = ImdbWordTokenizer::kPadId;
    layout.default_min_frequency = ImdbWordTokenizer::kDefaultMinFreq;
    layout.type = "ImdbWordTokenizer";
    layout.version = 1;
    layout.min_frequency_key = "min_freq";
    layout.words_key = "words";
    layout.word_noun = "word";
    layout.word_rule = "a non-empty lowercase [a-z0-9] word";
    layout.accepts = isVocabularyWord;
    return layout;
  }();
  return kLayout;
}

}  // namespace

ImdbWordTokenizer::ImdbWordTokenizer()
    : vocabulary_(WordVocabulary::empty(imdbLayout(), kDefaultMinFreq)) {}

ImdbWordTokenizer::ImdbWordTokenizer(WordVocabulary vocabulary, WordPairVocabulary pairs)
    : vocabulary_(std::move(vocabulary)), pairs_(std::move(pairs)) {}

ImdbWordTokenizer ImdbWordTokenizer::fit(const std::vector<std::string_view>& texts, int min_freq) {
  WordCounts counts;
  for (const std::string_view text : texts) {
    ImdbWordSplitter splitter(text);
    std::string_view word;
    while (splitter.next(word)) counts.add(word);
  }
  return ImdbWordTokenizer(WordVocabulary::fit(counts, min_freq, imdbLayout()));
}

ImdbWordTokenizer ImdbWordTokenizer::fit(const std::vector<TextSample>& samples, int min_freq) {
  std::vector<std::string_view> texts;
  texts.reserve(samples.size());
  for (const auto& sample : samples) texts.emplace_back(sample.text);
  return fit(texts, min_freq);
}

void ImdbWordTokenizer::fitPairs(const std::vector<TextSample>& samples, int min_count,
                                 std::size_t max_len) {
  WordPairCounts counts(static_cast<std::int64_t>(vocabSize()));
  std::vector<std::int64_t> ids(max_len);
  for (const auto& sample : samples) {
    encodeInto(sample.text, max_len, ids.data());  // the padding after the words pairs with none
    counts.add(ids.data(), static_cast<std::int64_t>(max_len));
  }
  pairs_ = WordPairVocabulary::fit(counts, min_count);
}

void ImdbWordTokenizer::encodeInto(std::string_view text, std::size_t max_len,
                                   std::int64_t* out) const {
  std::size_t length = 0;
  ImdbWordSplitter splitter(text);
  std::string_view word;
  while (length < max_len && splitter.next(word)) out[length++] = idOf(word);
  std::fill(out + length, out + max_len, kPadId);
}

std::vector<std::int64_t> ImdbWordTokenizer::encode(std::string_view text,
                                                    std::size_t max_len) const {
  std::vector<std::int64_t> ids(max_len);
  encodeInto(text, max_len, ids.data());
  return ids;
}

std::vector<std::string> ImdbWordTokenizer::tokens(std::string_view text,
                                                   std::size_t max_len) const {
  std::vector<std::string> words;
  ImdbWordSplitter splitter(text);
  std::string_view word;
  while (words.size() < max_len && splitter.next(word)) words.emplace_back(word);
  return words;
}

nlohmann::json ImdbWordTokenizer::toJson() const {
  nlohmann::json json = vocabulary_.toJson(imdbLayout());
  if (!pairs_.empty()) {
    pairs_.addToJson(json, [this](std::int64_t id) { return wordOf(id); });
  }
  return json;
}

Expected<ImdbWordTokenizer> ImdbWordTokenizer::fromJson(const nlohmann::json& json,
                                                        const std::string& name) {
  auto vocabulary = WordVocabulary::fromJson(json, name, imdbLayout());
  if (!vocabulary) return Error{vocabulary.error()};
  const WordVocabulary& words = *vocabulary;
  auto pairs =
      WordPairVocabulary::fromJson(json, name, static_cast<std::int64_t>(words.size()),
                                   [&words](std::string_view word) { return words.idOf(word); });
  if (!pairs) return Error{pairs.error()};
  return ImdbWordTokenizer(std::move(*vocabulary), std::move(*pairs));
}

Expected<ImdbWordTokenizer> ImdbWordTokenizer::fromJsonText(std::string_view text,
                                                            const std::string& name) {
  auto json = parseJson(text, name);
  if (!json) return Error{json.error()};
  return fromJson(*json, name);
}

Status ImdbWordTokenizer::save(const std::string& path) const {
  return writeJsonFile(path, toJson());
}

Expected<ImdbWordTokenizer> ImdbWordTokenizer::load(const std::string& path) {
  auto json = readJsonFile(path);
  if (!json) return Error{json.error()};
  return fromJson(*json, path);
}

}  // namespace ascope
