// The word pairs the IMDB tokenizer gives rows of their own: counted over neighbouring known words
// only, kept at the minimum count, and written to and read back from the tokenizer's file as words.
#include "engine/text/words/word_pair_vocabulary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/text/words/imdb_word_tokenizer.h"

namespace ascope {
namespace {

using Keys = std::vector<std::int64_t>;

TEST(WordPairVocabulary, KeepsNeighbouringKnownWordsSeenOftenEnoughInKeyOrder) {
  WordPairCounts counts(10);
  const std::vector<std::int64_t> first = {3, 4, 3, 4, 0, 4, 3};   // (3,4) twice, (4,3) twice
  const std::vector<std::int64_t> second = {5, 6, 0, 5, 6, 2, 9};  // (5,6) twice, (2,9) once
  counts.add(first.data(), static_cast<std::int64_t>(first.size()));
  counts.add(second.data(), static_cast<std::int64_t>(second.size()));
  const WordPairVocabulary twice = WordPairVocabulary::fit(counts, 2);
  EXPECT_EQ(twice.keys(), (Keys{34, 43, 56}))
      << "(0, 4), (6, 2) across an unknown word are no pairs";
  EXPECT_EQ(twice.minCount(), 2);
  EXPECT_EQ(WordPairVocabulary::fit(counts, 1).keys(), (Keys{29, 34, 43, 56, 62}));
  EXPECT_TRUE(WordPairVocabulary::fit(counts, 3).empty());
}

ImdbWordTokenizer fitWithPairs() {
  const std::vector<TextSample> reviews = {
      {"not good at all, not good", 0}, {"good film, not bad", 1}, {"a good film", 1}};
  ImdbWordTokenizer tokenizer = ImdbWordTokenizer::fit(reviews, 1);
  tokenizer.fitPairs(reviews, 2, 100);
  return tokenizer;
}

TEST(WordPairVocabulary, TheTokenizerFileKeepsThePairsAsWords) {
  const ImdbWordTokenizer tokenizer = fitWithPairs();
  const nlohmann::json json = tokenizer.toJson();
  EXPECT_EQ(json["pair_min_freq"], 2);
  std::vector<std::string> pairs = json["pairs"];
  std::sort(pairs.begin(), pairs.end());
  EXPECT_EQ(pairs, (std::vector<std::string>{"good film", "not good"}));
  const Expected<ImdbWordTokenizer> read = ImdbWordTokenizer::fromJson(json, "tokenizer.json");
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read->pairs().keys(), tokenizer.pairs().keys());
  EXPECT_EQ(read->pairs().minCount(), 2);
  const std::int64_t v = static_cast<std::int64_t>(tokenizer.vocabSize());
  EXPECT_EQ(tokenizer.pairs().vocabSize(), v);
  const std::int64_t not_good = tokenizer.idOf("not") * v + tokenizer.idOf("good");
  EXPECT_NE(std::find(read->pairs().keys().begin(), read->pairs().keys().end(), not_good),
            read->pairs().keys().end());

  // A tokenizer without pairs writes none, and a file without them (every run before) has none.
  const std::vector<TextSample> one_review = {{"good film", 1}};
  const ImdbWordTokenizer words_only = ImdbWordTokenizer::fit(one_review, 1);
  EXPECT_FALSE(words_only.toJson().contains("pairs"));
  EXPECT_TRUE(ImdbWordTokenizer::fromJson(words_only.toJson(), "t.json")->pairs().empty());
}

TEST(WordPairVocabulary, RefusesAFileWhosePairsDoNotFitItsWords) {
  const auto error = [](const std::string& pairs, const std::string& min_count = "2") {
    const std::string text = R"({"type":"ImdbWordTokenizer","version":1,"words":["not","good"],)"
                             R"("pair_min_freq":)" +
                             min_count + R"(,"pairs":)" + pairs + "}";
    const Expected<ImdbWordTokenizer> read = ImdbWordTokenizer::fromJsonText(text, "tok.json");
    return read.ok() ? std::string("loaded") : read.error();
  };
  EXPECT_EQ(error(R"(["not good"])"), "loaded");
  EXPECT_NE(error(R"(["not great"])").find("pairs[0] \"not great\" has a word outside"),
            std::string::npos);
  EXPECT_NE(error(R"(["not good", "notgood"])").find("pairs[1]"), std::string::npos);
  EXPECT_NE(error(R"(["not  good"])").find("two words and one space"), std::string::npos);
  EXPECT_NE(error(R"(["not good", "not good"])").find("twice"), std::string::npos);
  EXPECT_NE(error(R"([3])").find("pairs[0] is not a string"), std::string::npos);
  EXPECT_NE(error(R"("not good")").find("must be an array"), std::string::npos);
  EXPECT_NE(error(R"(["not good"])", "0").find("pair_min_freq"), std::string::npos);
  EXPECT_NE(error(R"(["not good"])", "\"2\"").find("pair_min_freq"), std::string::npos);
}

}  // namespace
}  // namespace ascope
