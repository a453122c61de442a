#include "engine/builtin/random_word_datasets.h"

#include <string>
#include <vector>

#include "engine/builtin/seeded_random.h"

namespace ascope {
namespace {

/// Draws texts of `length` words from the word list, reshuffled whenever it is used up.
class WordStream {
 public:
  WordStream(int64_t words, std::uint64_t seed) : random_(seed) {
    for (int64_t i = 0; i < words; ++i) words_.push_back("w" + std::to_string(i));
    next_ = words_.size();  // shuffle before the first word
  }

  std::string text(int64_t length) {
    std::string out;
    for (int64_t i = 0; i < length; ++i) {
      if (next_ == words_.size()) {
        random_.shuffle(words_);
        next_ = 0;
      }
      if (i > 0) out += ' ';
      out += words_[next_++];
    }
    return out;
  }

 private:
  SeededRandom random_;
  std::vector<std::string> words_;
  std::size_t next_ = 0;
};

}  // namespace

TextDataset generateRandomWordReviews(const RandomWordOptions& o) {
  WordStream stream(o.words, o.seed);
  TextDataset data;
  for (int i = 0; i < o.train_count; ++i) data.train.push_back({stream.text(o.length), i % 2});
  for (int i = 0; i < o.test_count; ++i) data.test.push_back({stream.text(o.length), i % 2});
  return data;
}

TranslationDataset generateRandomWordPairs(const RandomWordOptions& o) {
  WordStream source(o.words, o.seed), target(o.words, o.seed + 1);
  TranslationDataset data;
  for (int i = 0; i < o.train_count; ++i) {
    std::string s = source.text(o.length);
    data.train.push_back({std::move(s), target.text(o.length)});
  }
  for (int i = 0; i < o.test_count; ++i) {
    std::string s = source.text(o.length);
    data.validation.push_back({std::move(s), target.text(o.length)});
  }
  return data;
}

}  // namespace ascope
