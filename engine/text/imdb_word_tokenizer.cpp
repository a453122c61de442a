#include "engine/text/imdb_word_tokenizer.h"

#include <algorithm>
#include <deque>
#include <exception>
#include <nlohmann/json.hpp>

#include "engine/text/imdb_word_splitter.h"
#include "engine/text/json_file.h"

namespace ascope {
namespace {

constexpr const char* kType = "ImdbWordTokenizer";
constexpr int kVersion = 1;

bool isWord(std::string_view word) {
  if (word.empty()) return false;
  return std::all_of(word.begin(), word.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
}

}  // namespace

ImdbWordTokenizer::ImdbWordTokenizer(std::vector<std::string> words, int min_freq)
    : words_(std::move(words)), min_freq_(min_freq) {
  rebuildIndex();
}

// The index holds views into words_, so a copy must index its own words, not the original's.
ImdbWordTokenizer::ImdbWordTokenizer(const ImdbWordTokenizer& other)
    : words_(other.words_), min_freq_(other.min_freq_) {
  rebuildIndex();
}

ImdbWordTokenizer& ImdbWordTokenizer::operator=(const ImdbWordTokenizer& other) {
  if (this != &other) {
    words_ = other.words_;
    min_freq_ = other.min_freq_;
    rebuildIndex();
  }
  return *this;
}

void ImdbWordTokenizer::rebuildIndex() {
  ids_.clear();
  ids_.reserve(words_.size());
  for (std::size_t i = 0; i < words_.size(); ++i) {
    ids_.emplace(words_[i], static_cast<std::int64_t>(i + 1));
  }
}

ImdbWordTokenizer ImdbWordTokenizer::fit(const std::vector<std::string_view>& texts, int min_freq) {
  // Counting keys are views into `arena`, whose elements never move, so each distinct word is
  // copied once and the hot loop allocates nothing.
  std::deque<std::string> arena;
  std::unordered_map<std::string_view, std::size_t> counts;
  std::size_t total_bytes = 0;
  for (const std::string_view text : texts) total_bytes += text.size();
  counts.reserve(std::min<std::size_t>(std::size_t{1} << 16, total_bytes / 8 + 16));
  for (const std::string_view text : texts) {
    ImdbWordSplitter splitter(text);
    std::string_view word;
    while (splitter.next(word)) {
      const auto it = counts.find(word);
      if (it != counts.end()) {
        ++it->second;
      } else {
        counts.emplace(arena.emplace_back(word), 1);
      }
    }
  }
  std::vector<std::pair<std::string_view, std::size_t>> kept;
  const auto threshold = static_cast<std::size_t>(std::max(min_freq, 1));
  for (const auto& entry : counts) {
    if (entry.second >= threshold) kept.push_back(entry);
  }
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> words;
  words.reserve(kept.size());
  for (const auto& entry : kept) words.emplace_back(entry.first);
  return ImdbWordTokenizer(std::move(words), min_freq);
}

ImdbWordTokenizer ImdbWordTokenizer::fit(const std::vector<TextSample>& samples, int min_freq) {
  std::vector<std::string_view> texts;
  texts.reserve(samples.size());
  for (const auto& sample : samples) texts.emplace_back(sample.text);
  return fit(texts, min_freq);
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

std::int64_t ImdbWordTokenizer::idOf(std::string_view word) const {
  const auto it = ids_.find(word);
  return it == ids_.end() ? kPadId : it->second;
}

std::string ImdbWordTokenizer::wordOf(std::int64_t id) const {
  if (id < 1 || static_cast<std::size_t>(id) > words_.size()) return {};
  return words_[static_cast<std::size_t>(id - 1)];
}

nlohmann::json ImdbWordTokenizer::toJson() const {
  return {{"type", kType}, {"version", kVersion}, {"min_freq", min_freq_}, {"words", words_}};
}

Expected<ImdbWordTokenizer> ImdbWordTokenizer::fromJson(const nlohmann::json& json,
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
    int min_freq = kDefaultMinFreq;
    const auto stored_min_freq = json.find("min_freq");
    if (stored_min_freq != json.end()) {
      if (!stored_min_freq->is_number_integer() || stored_min_freq->get<std::int64_t>() < 1 ||
          stored_min_freq->get<std::int64_t>() > 1000000000) {
        return Error{name + ": \"min_freq\" must be a positive integer"};
      }
      min_freq = stored_min_freq->get<int>();
    }
    const auto words_json = json.find("words");
    if (words_json == json.end() || !words_json->is_array()) {
      return Error{name + ": \"words\" must be an array of strings"};
    }
    std::vector<std::string> words;
    words.reserve(words_json->size());
    for (std::size_t i = 0; i < words_json->size(); ++i) {
      const nlohmann::json& word = (*words_json)[i];
      if (!word.is_string() || !isWord(word.get_ref<const std::string&>())) {
        return Error{name + ": words[" + std::to_string(i) +
                     "] is not a non-empty lowercase [a-z0-9] word"};
      }
      words.push_back(word.get<std::string>());
    }
    ImdbWordTokenizer tokenizer(std::move(words), min_freq);
    if (tokenizer.ids_.size() != tokenizer.words_.size()) {
      return Error{name + ": \"words\" holds the same word twice"};
    }
    return tokenizer;
  } catch (const std::exception& e) {  // nlohmann's own checks, should ours miss a case
    return Error{name + ": " + e.what()};
  }
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
