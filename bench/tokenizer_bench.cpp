// Times what a sentiment run does before its first step: build the IMDB word vocabulary from 50,000
// reviews and encode every review to 100 ids. The reviews are synthetic but IMDB-shaped: ~230 words
// drawn with Zipf frequencies from an 8,000-word vocabulary, capitals, punctuation, contractions
// and <br /> breaks. Prints the best of 3 runs:
//   imdb_tokenize_50000_reviews_ms=<ms> vocab_size=<ids, padding included>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/words/imdb_word_tokenizer.h"

namespace {

constexpr std::size_t kReviews = 50000;
constexpr std::size_t kWordsPerReview = 230;
constexpr std::size_t kVocabulary = 8000;
constexpr int kRuns = 3;

/// Pronounceable made-up words, the short ones the most frequent, as in English.
std::vector<std::string> makeVocabulary(std::mt19937_64& rng) {
  const char* const onsets[] = {"b", "c", "d", "f",  "g",  "h",  "l",  "m",  "n",  "p",  "r",  "s",
                                "t", "v", "w", "br", "ch", "st", "th", "tr", "sh", "pl", "gr", ""};
  const char* const vowels[] = {"a", "e", "i", "o", "u", "ea", "ou", "io", "ai", "y"};
  const char* const codas[] = {"", "", "n", "r", "s", "t", "ng", "ll", "ck", "nd", "rt", "st"};
  std::vector<std::string> words = {"the",  "a",  "and",  "of",   "to",  "is",
                                    "it",   "in", "this", "that", "was", "movie",
                                    "film", "i",  "for",  "but",  "with"};
  while (words.size() < kVocabulary) {
    const std::size_t syllables = 1 + words.size() * 3 / kVocabulary + rng() % 2;
    std::string word;
    for (std::size_t s = 0; s < syllables; ++s) {
      word += onsets[rng() % std::size(onsets)];
      word += vowels[rng() % std::size(vowels)];
      word += codas[rng() % std::size(codas)];
    }
    words.push_back(std::move(word));
  }
  return words;
}

std::vector<std::string> makeReviews() {
  std::mt19937_64 rng(2024);
  const std::vector<std::string> vocabulary = makeVocabulary(rng);
  std::vector<double> cumulative(vocabulary.size());
  double total = 0.0;
  for (std::size_t i = 0; i < vocabulary.size(); ++i) {
    total += 1.0 / std::pow(static_cast<double>(i + 1), 1.07);  // Zipf, as in natural text
    cumulative[i] = total;
  }
  std::uniform_real_distribution<double> uniform(0.0, total);
  const char* const punctuation[] = {",", ".", "!", "?", "...", ";", ":", ")"};
  std::vector<std::string> reviews(kReviews);
  for (std::string& review : reviews) {
    review.reserve(kWordsPerReview * 7);
    bool sentence_start = true;
    const std::size_t words = kWordsPerReview - 60 + rng() % 121;  // 170..290, mean 230
    for (std::size_t w = 0; w < words; ++w) {
      const auto pick = static_cast<std::size_t>(
          std::lower_bound(cumulative.begin(), cumulative.end(), uniform(rng)) -
          cumulative.begin());
      std::string word = vocabulary[std::min(pick, vocabulary.size() - 1)];
      if (sentence_start) word[0] = static_cast<char>(word[0] - 'a' + 'A');
      if (rng() % 40 == 0) word += "n't";
      if (rng() % 60 == 0) word = "\"" + word;
      review += word;
      sentence_start = false;
      const std::uint64_t roll = rng() % 100;
      if (roll < 12) {
        const char* mark = punctuation[rng() % std::size(punctuation)];
        review += mark;
        sentence_start = mark[0] == '.' || mark[0] == '!' || mark[0] == '?';
      }
      review += (roll == 99) ? "<br /><br />" : " ";
    }
  }
  return reviews;
}

}  // namespace

int main() {
  const std::vector<std::string> reviews = makeReviews();
  std::vector<std::string_view> texts(reviews.begin(), reviews.end());
  std::vector<std::int64_t> ids(ascope::ImdbWordTokenizer::kDefaultMaxLen * reviews.size());

  double best_ms = 1e300;
  std::size_t vocab_size = 0;
  for (int run = 0; run < kRuns; ++run) {
    const auto start = std::chrono::steady_clock::now();
    const ascope::ImdbWordTokenizer tokenizer = ascope::ImdbWordTokenizer::fit(texts);
    for (std::size_t i = 0; i < texts.size(); ++i) {
      tokenizer.encodeInto(texts[i], ascope::ImdbWordTokenizer::kDefaultMaxLen,
                           ids.data() + i * ascope::ImdbWordTokenizer::kDefaultMaxLen);
    }
    const auto stop = std::chrono::steady_clock::now();
    best_ms = std::min(best_ms, std::chrono::duration<double, std::milli>(stop - start).count());
    vocab_size = tokenizer.vocabSize();
  }
  std::size_t bytes = 0;
  for (const auto& review : reviews) bytes += review.size();
  std::printf("imdb_tokenize_%zu_reviews_ms=%.0f vocab_size=%zu\n", reviews.size(), best_ms,
              vocab_size);
  std::fprintf(stderr, "(%zu MB of text; %zu ids are 0, unknown or padding)\n", bytes >> 20,
               static_cast<std::size_t>(std::count(ids.begin(), ids.end(), 0)));
  return 0;
}
