#include "engine/text/words/word_vocabulary.h"

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>
#include <utility>

namespace ascope {
namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) {
    if (!text.empty()) text.push_back(' ');
    text += word;
  }
  return text;
}

}  // namespace

WordVocabulary::WordVocabulary(std::vector<std::string> words, int min_frequency,
                               const WordVocabularyLayout& layout)
    : words_(std::move(words)),
      first_id_(layout.first_id),
      unknown_id_(layout.unknown_id),
      min_frequency_(min_frequency) {
  for (std::size_t i = 0; i < words_.size(); ++i) {
    index_.insert(words_[i], static_cast<std::int32_t>(first_id_ + static_cast<std::int64_t>(i)));
  }
}

WordVocabulary WordVocabulary::empty(const WordVocabularyLayout& layout, int min_frequency) {
  return WordVocabulary(layout.special_tokens, min_frequency, layout);
}

WordVocabulary WordVocabulary::fit(const WordCounts& counts, int min_frequency,
                                   const WordVocabularyLayout& layout) {
  std::vector<std::pair<std::string_view, std::size_t>> kept;
  const auto threshold = static_cast<std::size_t>(std::max(min_frequency, 1));
  for (std::size_t i = 0; i < counts.words().size(); ++i) {
    if (counts.counts()[i] >= threshold) kept.emplace_back(counts.words()[i], counts.counts()[i]);
  }
  // Ties by byte order (string_view compares bytes as unsigned char), which for UTF-8 is code point
  // order: the order of both references' sorts.
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> words = layout.special_tokens;
  words.reserve(words.size() + kept.size());
  for (const auto& entry : kept) words.emplace_back(entry.first);
  return WordVocabulary(std::move(words), min_frequency, layout);
}

std::int64_t WordVocabulary::idOf(std::string_view word) const {
  const std::int32_t id = index_.find(word);
  return id < 0 ? unknown_id_ : id;
}

const std::string& WordVocabulary::wordOf(std::int64_t id) const {
  static const std::string kNoWord;
  const auto has_word = [this](std::int64_t at) {
    return at >= first_id_ && at - first_id_ < static_cast<std::int64_t>(words_.size());
  };
  if (!has_word(id)) id = unknown_id_;
  return has_word(id) ? words_[static_cast<std::size_t>(id - first_id_)] : kNoWord;
}

nlohmann::json WordVocabulary::toJson(const WordVocabularyLayout& layout) const {
  return {{"type", layout.type},
          {"version", layout.version},
          {layout.min_frequency_key, min_frequency_},
          {layout.words_key, words_}};
}

Expected<WordVocabulary> WordVocabulary::fromJson(const nlohmann::json& json,
                                                  const std::string& name,
                                                  const WordVocabularyLayout& layout) {
  try {
    if (!json.is_object()) return Error{name + ": expected a JSON object"};
    const auto type = json.find("type");
    if (type == json.end() || !type->is_string() || type->get<std::string>() != layout.type) {
      return Error{name + ": \"type\" is not \"" + layout.type + "\""};
    }
    const auto version = json.find("version");
    if (version == json.end() || !version->is_number_integer() ||
        version->get<std::int64_t>() != layout.version) {
      return Error{name + ": unsupported \"version\" (this build reads version " +
                   std::to_string(layout.version) + ")"};
    }
    for (const std::string& key : layout.flags) {
      const auto flag = json.find(key);
      if (flag == json.end() || !flag->is_boolean()) {
        return Error{name + ": \"" + key + "\" must be true or false"};
      }
    }
    int min_frequency = layout.default_min_frequency;
    const auto stored_min_frequency = json.find(layout.min_frequency_key);
    if (stored_min_frequency != json.end()) {
      if (!stored_min_frequency->is_number_integer() ||
          stored_min_frequency->get<std::int64_t>() < 1 ||
          stored_min_frequency->get<std::int64_t>() > 1000000000) {
        return Error{name + ": \"" + layout.min_frequency_key + "\" must be a positive integer"};
      }
      min_frequency = stored_min_frequency->get<int>();
    }
    const auto words_json = json.find(layout.words_key);
    if (words_json == json.end() || !words_json->is_array()) {
      return Error{name + ": \"" + layout.words_key + "\" must be an array of strings"};
    }
    const std::size_t special_count = layout.special_tokens.size();
    std::vector<std::string> words;
    words.reserve(words_json->size());
    for (std::size_t i = 0; i < words_json->size(); ++i) {
      const nlohmann::json& word = (*words_json)[i];
      const auto entry = [&] { return layout.words_key + "[" + std::to_string(i) + "]"; };
      if (!word.is_string() || word.get_ref<const std::string&>().empty() ||
          (layout.accepts != nullptr && !layout.accepts(word.get_ref<const std::string&>()))) {
        return Error{name + ": " + entry() + " is not " + layout.word_rule};
      }
      if (i < special_count && word.get_ref<const std::string&>() != layout.special_tokens[i]) {
        return Error{name + ": " + entry() + " must be " + layout.special_tokens[i]};
      }
      words.push_back(word.get<std::string>());
    }
    if (words.size() < special_count) {
      return Error{name + ": \"" + layout.words_key + "\" lacks the special tokens " +
                   joined(layout.special_tokens)};
    }
    WordVocabulary vocabulary(std::move(words), min_frequency, layout);
    if (vocabulary.index_.size() != vocabulary.words_.size()) {
      return Error{name + ": \"" + layout.words_key + "\" holds the same " + layout.word_noun +
                   " twice"};
    }
    return vocabulary;
  } catch (const std::exception& e) {  // nlohmann's own checks, should ours miss a case
    return Error{name + ": " + e.what()};
  }
}

}  // namespace ascope
