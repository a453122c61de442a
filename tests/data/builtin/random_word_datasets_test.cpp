#include "engine/builtin/random_word_datasets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string_view>

#include "engine/text/words/imdb_word_tokenizer.h"
#include "engine/text/words/translation_word_tokenizer.h"

namespace ascope {
namespace {

std::map<std::string, int> wordCounts(const std::vector<std::string>& texts) {
  std::map<std::string, int> counts;
  for (const std::string& text : texts) {
    std::istringstream words(text);
    for (std::string w; words >> w;) ++counts[w];
  }
  return counts;
}

TEST(RandomWordDatasets, ReviewsFitAVocabularyOfExactlyTheWordsAsked) {
  // 999 words + padding = the 1000 ids of torch.randint(1, 1000, …); 100 reviews × 10 words use
  // every word once, and one more time for 1 of them.
  const TextDataset data = generateRandomWordReviews({999, 10, 100, 4, 7});
  ASSERT_EQ(data.train.size(), 100u);
  ASSERT_EQ(data.test.size(), 4u);
  const ImdbWordTokenizer tokenizer = ImdbWordTokenizer::fit(data.train, /*min_freq=*/1);
  EXPECT_EQ(tokenizer.vocabSize(), 1000u);
  std::vector<std::string> texts;
  for (const TextSample& s : data.train) {
    const std::vector<int64_t> ids = tokenizer.encode(s.text, 10);
    EXPECT_EQ(std::count(ids.begin(), ids.end(), ImdbWordTokenizer::kPadId), 0) << s.text;
    EXPECT_EQ(tokenizer.tokens(s.text, 100).size(), 10u) << s.text;
    texts.push_back(s.text);
  }
  const std::map<std::string, int> counts = wordCounts(texts);
  EXPECT_EQ(counts.size(), 999u);
  int twice = 0;
  for (const auto& [word, n] : counts) {
    EXPECT_TRUE(n == 1 || n == 2) << word << " " << n;
    twice += n == 2;
  }
  EXPECT_EQ(twice, 1);  // 1000 words drawn from 999
  EXPECT_EQ(data.train[0].label, 0);
  EXPECT_EQ(data.train[1].label, 1);
}

TEST(RandomWordDatasets, PairsFitTheTranslationVocabularyWithItsSpecialTokens) {
  // 21996 words + [UNK] [PAD] [SOS] [EOS] = the seed's 22000 ids (torch.randint(4, 22000, …)).
  const TranslationDataset data = generateRandomWordPairs({21996, 348, 64, 2, 3});
  ASSERT_EQ(data.train.size(), 64u);
  ASSERT_EQ(data.validation.size(), 2u);
  std::vector<std::string_view> sources, targets;
  for (const TranslationPair& p : data.train) {
    sources.push_back(p.source);
    targets.push_back(p.target);
  }
  const auto source = TranslationWordTokenizer::fit(sources, 1);
  const auto target = TranslationWordTokenizer::fit(targets, 1);
  EXPECT_EQ(source.vocabSize(), 22000u);
  EXPECT_EQ(target.vocabSize(), 22000u);
  EXPECT_EQ(source.encode(data.train[5].source).size(), 348u);
  EXPECT_EQ(target.encode(data.train[5].target).size(), 348u);
  EXPECT_NE(data.train[0].source, data.train[0].target);  // the two sides are drawn apart
}

TEST(RandomWordDatasets, TheSeedFixesTheWords) {
  EXPECT_EQ(generateRandomWordReviews({50, 5, 8, 2, 1}).train[3].text,
            generateRandomWordReviews({50, 5, 8, 2, 1}).train[3].text);
  EXPECT_NE(generateRandomWordReviews({50, 5, 8, 2, 1}).train[3].text,
            generateRandomWordReviews({50, 5, 8, 2, 2}).train[3].text);
}

}  // namespace
}  // namespace ascope
