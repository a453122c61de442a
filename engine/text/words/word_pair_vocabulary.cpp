#include "engine/text/words/word_pair_vocabulary.h"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <nlohmann/json.hpp>
#include <utility>

namespace ascope {

WordPairVocabulary WordPairVocabulary::fit(const WordPairCounts& counts, int min_count) {
  std::vector<std::pair<std::int64_t, std::int64_t>> kept;  // (key, count)
  const auto threshold = static_cast<std::int64_t>(std::max(min_count, 1));
  for (const auto& [key, count] : counts.counts()) {
    if (count >= threshold) kept.emplace_back(key, count);
  }
  if (kept.size() > kMaxPairs) {
    std::nth_element(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(kMaxPairs),
                     kept.end(), [](const auto& a, const auto& b) {
                       return a.second != b.second ? a.second > b.second : a.first < b.first;
                     });
    kept.resize(kMaxPairs);
  }
  std::vector<std::int64_t> keys;
  keys.reserve(kept.size());
  for (const auto& entry : kept) keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());
  return WordPairVocabulary(std::move(keys), std::max(min_count, 1), counts.vocabSize());
}

void WordPairVocabulary::addToJson(nlohmann::json& json,
                                   const std::function<std::string(std::int64_t)>& word_of) const {
  std::vector<std::string> pairs;
  pairs.reserve(keys_.size());
  for (const std::int64_t key : keys_) {
    pairs.push_back(word_of(key / vocab_size_) + " " + word_of(key % vocab_size_));
  }
  json["pair_min_freq"] = min_count_;
  json["pairs"] = std::move(pairs);
}

Expected<WordPairVocabulary> WordPairVocabulary::fromJson(
    const nlohmann::json& json, const std::string& name, std::int64_t vocab_size,
    const std::function<std::int64_t(std::string_view)>& id_of) {
  try {
    const auto pairs = json.find("pairs");
    if (pairs == json.end()) return WordPairVocabulary();
    if (!pairs->is_array()) return Error{name + ": \"pairs\" must be an array of strings"};
    if (pairs->size() > kMaxPairs) {
      return Error{name + ": " + std::to_string(pairs->size()) + " word pairs, more than " +
                   std::to_string(kMaxPairs)};
    }
    const auto min_count = json.find("pair_min_freq");
    if (min_count == json.end() || !min_count->is_number_integer() ||
        min_count->get<std::int64_t>() < 1 || min_count->get<std::int64_t>() > 1'000'000'000) {
      return Error{name + ": \"pair_min_freq\" must be a positive integer"};
    }
    std::vector<std::int64_t> keys;
    keys.reserve(pairs->size());
    for (std::size_t i = 0; i < pairs->size(); ++i) {
      const auto entry = [&] { return name + ": pairs[" + std::to_string(i) + "]"; };
      const nlohmann::json& pair = (*pairs)[i];
      if (!pair.is_string()) return Error{entry() + " is not a string"};
      const std::string& text = pair.get_ref<const std::string&>();
      const std::size_t space = text.find(' ');
      if (space == std::string::npos || text.find(' ', space + 1) != std::string::npos) {
        return Error{entry() + " \"" + text.substr(0, 80) + "\" is not two words and one space"};
      }
      const std::int64_t first = id_of(std::string_view(text).substr(0, space));
      const std::int64_t second = id_of(std::string_view(text).substr(space + 1));
      if (first <= 0 || second <= 0 || first >= vocab_size || second >= vocab_size) {
        return Error{entry() + " \"" + text.substr(0, 80) + "\" has a word outside \"words\""};
      }
      keys.push_back(wordPairKey(first, second, vocab_size));
    }
    std::sort(keys.begin(), keys.end());
    if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) {
      return Error{name + ": \"pairs\" holds the same pair twice"};
    }
    return WordPairVocabulary(std::move(keys), min_count->get<int>(), vocab_size);
  } catch (const std::exception& e) {
    return Error{name + ": " + e.what()};
  }
}

}  // namespace ascope
