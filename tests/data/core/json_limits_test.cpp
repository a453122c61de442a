// The bracket scan that runs before nlohmann parses config.json and tokenizer files: nesting and
// size are bounded, brackets inside strings do not count.
#include "engine/core/json_limits.h"

#include <gtest/gtest.h>

#include "engine/core/json_file.h"
#include "engine/text/words/imdb_word_tokenizer.h"
#include "engine/text/words/translation_word_tokenizer.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using testing::FixtureFolder;

std::string checkJson(const std::string& text, const JsonLimits& limits = {}) {
  const Status s = checkJsonLimits(text, "config.json", limits);
  return s.ok() ? "ok" : s.error();
}

TEST(JsonLimits, NestingDepthIsBounded) {
  EXPECT_EQ(checkJson(std::string(32, '[') + std::string(32, ']')), "ok");
  EXPECT_EQ(checkJson(std::string(33, '[') + std::string(33, ']')),
            "config.json: JSON nested deeper than 32 levels at line 1, byte 33");
  EXPECT_EQ(checkJson("{\"a\":\n" + std::string(200000, '[')),
            "config.json: JSON nested deeper than 32 levels at line 2, byte 38");
  // Siblings do not add up: depth, not count.
  std::string wide = "[";
  for (int i = 0; i < 1000; ++i) wide += "[[]],";
  wide += "0]";
  EXPECT_EQ(checkJson(wide), "ok");
}

TEST(JsonLimits, BracketsInStringsDoNotCount) {
  const std::string brackets(100, '[');
  EXPECT_EQ(checkJson("{\"name\": \"" + brackets + "\"}"), "ok");
  EXPECT_EQ(checkJson("{\"name\": \"say \\\"" + brackets + "\\\" \\\\\"}"), "ok");
  // After an escaped backslash the quote ends the string: these brackets count again.
  EXPECT_NE(checkJson("[\"\\\\\"" + brackets + "]"), "ok");
}

TEST(JsonLimits, SizeIsBounded) {
  JsonLimits small;
  small.max_bytes = 10;
  EXPECT_EQ(checkJson("[1,2,3,4,5,6]", small),
            "config.json is 13 bytes, over the 10 bytes limit for this JSON file");
  EXPECT_EQ(checkJson(std::string(kMaxConfigJsonBytes + 1, ' ')),
            "config.json is 1.0 MiB, over the 1 MiB limit for this JSON file");
}

TEST(JsonLimits, TokenizerFilesAreCheckedBeforeParsing) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto imdb = ImdbWordTokenizer::fromJsonText(deep, "tokenizer.json");
  ASSERT_FALSE(imdb.ok());
  EXPECT_EQ(imdb.error(), "tokenizer.json: JSON nested deeper than 32 levels at line 1, byte 33");
  auto translation = TranslationWordTokenizer::fromJsonText(deep, "tokenizer_en.json");
  ASSERT_FALSE(translation.ok());
  EXPECT_EQ(translation.error(),
            "tokenizer_en.json: JSON nested deeper than 32 levels at line 1, byte 33");

  FixtureFolder folder;
  const std::string path = folder.write("tokenizer.json", deep);
  auto loaded = ImdbWordTokenizer::load(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error(), path + ": JSON nested deeper than 32 levels at line 1, byte 33");
  JsonLimits tiny;
  tiny.max_bytes = 100;
  EXPECT_EQ(readJsonFile(path, tiny).error(),
            path + " is 195.3 KiB, over the 100 bytes limit for this file");
}

}  // namespace
}  // namespace ascope
