#include "engine/text/words/imdb_word_tokenizer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/text/words/imdb_word_splitter.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using Words = std::vector<std::string>;
using Ids = std::vector<std::int64_t>;

Words splitWords(std::string_view text) {
  ImdbWordSplitter splitter(text);
  Words words;
  std::string_view word;
  while (splitter.next(word)) words.emplace_back(word);
  return words;
}

TEST(ImdbWordSplitter, MatchesTheReferenceRegex) {
  // re.sub("[^a-z0-9]", " ", text.lower()).split()
  EXPECT_EQ(splitWords("Hello, World! It's 2024... <br />Don't-stop_now"),
            (Words{"hello", "world", "it", "s", "2024", "br", "don", "t", "stop", "now"}));
  EXPECT_EQ(splitWords("  \t\n "), Words{});
  EXPECT_EQ(splitWords(std::string_view("ab\0cd", 5)), (Words{"ab", "cd"}))
      << "NUL separates words";
  EXPECT_EQ(splitWords("already lower, Then MiXed"), (Words{"already", "lower", "then", "mixed"}));
  EXPECT_EQ(splitWords("café naïve"), (Words{"caf", "na", "ve"}))
      << "non-ASCII letters split words";
  // The only two characters that Python's lower() turns into ASCII.
  EXPECT_EQ(splitWords("5\xE2\x84\xAA cold"), (Words{"5k", "cold"}));
  EXPECT_EQ(splitWords("\xC4\xB0stanbul"), (Words{"i", "stanbul"}));
}

ImdbWordTokenizer fitImdbExample() {
  // counts: the 4, film 3, good 2, bad 2, a 2, once 1 (dropped at min_freq 2)
  const std::vector<std::string_view> texts = {"The film. THE good film", "the bad film, a good",
                                               "the bad a once"};
  return ImdbWordTokenizer::fit(texts);
}

TEST(ImdbWordTokenizer, VocabularyIsByFrequencyThenWordFromIdOne) {
  const ImdbWordTokenizer tokenizer = fitImdbExample();
  EXPECT_EQ(tokenizer.vocabSize(), 6u) << "five words plus padding";
  EXPECT_EQ(tokenizer.idOf("the"), 1);
  EXPECT_EQ(tokenizer.idOf("film"), 2);
  EXPECT_EQ(tokenizer.idOf("a"), 3);
  EXPECT_EQ(tokenizer.idOf("bad"), 4);
  EXPECT_EQ(tokenizer.idOf("good"), 5);
  EXPECT_EQ(tokenizer.idOf("once"), 0) << "seen once, below min_freq 2";
  EXPECT_EQ(tokenizer.wordOf(2), "film");
  EXPECT_EQ(tokenizer.wordOf(0), "");
  EXPECT_EQ(tokenizer.wordOf(99), "");
  EXPECT_EQ(ImdbWordTokenizer::fit(std::vector<std::string_view>{"the once"}, 1).vocabSize(), 3u);
}

TEST(ImdbWordTokenizer, EncodePadsTruncatesAndMapsUnknownToZero) {
  const ImdbWordTokenizer tokenizer = fitImdbExample();
  EXPECT_EQ(tokenizer.encode("The GOOD, the unknown!", 6), (Ids{1, 5, 1, 0, 0, 0}));
  EXPECT_EQ(tokenizer.encode("the film the film the", 3), (Ids{1, 2, 1}));
  EXPECT_EQ(tokenizer.encode("", 2), (Ids{0, 0}));
  EXPECT_EQ(tokenizer.encode("film").size(), ImdbWordTokenizer::kDefaultMaxLen);
  EXPECT_EQ(tokenizer.tokens("The GOOD, the unknown!", 6),
            (Words{"the", "good", "the", "unknown"}));
  EXPECT_EQ(tokenizer.tokens("the film the film the", 3), (Words{"the", "film", "the"}));
}

TEST(ImdbWordTokenizer, FitsOnTextSamples) {
  const std::vector<TextSample> samples = {{"Good good", 1}, {"bad BAD", 0}};
  const ImdbWordTokenizer tokenizer = ImdbWordTokenizer::fit(samples);
  EXPECT_EQ(tokenizer.vocabSize(), 3u);
  EXPECT_EQ(tokenizer.idOf("bad"), 1);
}

TEST(ImdbWordTokenizer, RoundTripsThroughJsonAndFile) {
  const ImdbWordTokenizer tokenizer = fitImdbExample();
  const nlohmann::json json = tokenizer.toJson();
  EXPECT_EQ(json["type"], "ImdbWordTokenizer");
  EXPECT_EQ(json["words"], (Words{"the", "film", "a", "bad", "good"}));
  auto restored = ImdbWordTokenizer::fromJson(json, "tokenizer.json");
  ASSERT_TRUE(restored.ok()) << restored.error();
  EXPECT_EQ(restored->encode("good film once", 5), tokenizer.encode("good film once", 5));

  testing::FixtureFolder folder;
  const std::string path = folder.path("tokenizer.json");
  ASSERT_TRUE(tokenizer.save(path).ok());
  auto loaded = ImdbWordTokenizer::load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->vocabSize(), tokenizer.vocabSize());
  EXPECT_EQ(loaded->minFreq(), 2);
  EXPECT_EQ(loaded->encode("the bad a", 4), (Ids{1, 4, 3, 0}));
}

TEST(ImdbWordTokenizer, CopiesIndexTheirOwnWords) {
  ImdbWordTokenizer copy;
  {
    const ImdbWordTokenizer original = fitImdbExample();
    copy = original;
  }
  EXPECT_EQ(copy.idOf("good"), 5);
  const ImdbWordTokenizer constructed(copy);
  copy = ImdbWordTokenizer();
  EXPECT_EQ(constructed.idOf("bad"), 4);
}

TEST(ImdbWordTokenizer, RejectsBadJsonWithAMessage) {
  const auto error = [](std::string_view text) {
    auto loaded = ImdbWordTokenizer::fromJsonText(text, "tok.json");
    return loaded.ok() ? std::string("loaded") : loaded.error();
  };
  EXPECT_NE(error("{").find("tok.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error("[]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(error(R"({"type":"Other","version":1,"words":[]})").find("\"type\""),
            std::string::npos);
  EXPECT_NE(error(R"({"type":"ImdbWordTokenizer","version":2,"words":[]})").find("version"),
            std::string::npos);
  EXPECT_NE(
      error(R"({"type":"ImdbWordTokenizer","version":1,"words":["ok","Bad"]})").find("words[1]"),
      std::string::npos);
  EXPECT_NE(error(R"({"type":"ImdbWordTokenizer","version":1,"words":["a","a"]})").find("twice"),
            std::string::npos);
  EXPECT_NE(error(R"({"type":"ImdbWordTokenizer","version":1,"min_freq":-1,"words":[]})")
                .find("min_freq"),
            std::string::npos);
  EXPECT_EQ(error(R"({"type":"ImdbWordTokenizer","version":1,"words":[]})"), "loaded");
  EXPECT_FALSE(ImdbWordTokenizer::load("/nonexistent/tokenizer.json").ok());
}

}  // namespace
}  // namespace ascope
