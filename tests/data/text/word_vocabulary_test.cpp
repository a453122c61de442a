#include "engine/text/words/word_vocabulary.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/json_file.h"
#include "engine/core/json_limits.h"
#include "engine/core/regular_file.h"
#include "engine/text/words/imdb_word_tokenizer.h"
#include "engine/text/words/translation_word_tokenizer.h"
#include "engine/text/words/word_counts.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using Words = std::vector<std::string>;

WordCounts countsOf(const Words& words) {
  WordCounts counts;
  for (const std::string& word : words) counts.add(word);
  return counts;
}

// Ids 0 and 1 reserved without a word, two special tokens, unknown words read as the first one.
WordVocabularyLayout specialLayout() {
  WordVocabularyLayout layout;
  layout.first_id = 2;
  layout.special_tokens = {"<unk>", "<s>"};
  layout.unknown_id = 2;
  layout.default_min_frequency = 3;
  layout.type = "TestTokenizer";
  layout.version = 4;
  layout.flags = {"cased", "strip"};
  layout.min_frequency_key = "min_count";
  layout.words_key = "list";
  layout.word_noun = "entry";
  layout.word_rule = "a non-empty string without x";
  layout.accepts = [](std::string_view word) { return word.find('x') == std::string_view::npos; };
  return layout;
}

// Id 0 reserved and unknown, no special tokens: the IMDB tokenizer's shape.
WordVocabularyLayout paddedLayout() {
  WordVocabularyLayout layout;
  layout.first_id = 1;
  layout.unknown_id = 0;
  layout.type = "Padded";
  layout.min_frequency_key = "min_freq";
  layout.words_key = "words";
  return layout;
}

TEST(WordCounts, CountsEachDistinctWordOnceInTheOrderFirstSeen) {
  const std::string long_word = "a long word, past the short string buffer";
  const WordCounts counts = countsOf({"b", "a", "b", long_word, "b", long_word, ""});
  EXPECT_EQ(counts.words(), (Words{"b", "a", long_word, ""}));
  EXPECT_EQ(counts.counts(), (std::vector<std::size_t>{3, 1, 2, 1}));
  EXPECT_TRUE(WordCounts().words().empty());
}

TEST(WordVocabulary, FitsSpecialsFirstThenByFrequencyThenBytes) {
  // counts: b 3, a 2, c 2, "é" 2 (bytes C3 A9, after every ASCII byte), d 1
  const WordCounts counts =
      countsOf({"c", "b", "a", "\xC3\xA9", "b", "d", "c", "a", "b", "\xC3\xA9"});
  const WordVocabulary vocabulary = WordVocabulary::fit(counts, 2, specialLayout());
  EXPECT_EQ(vocabulary.words(), (Words{"<unk>", "<s>", "b", "a", "c", "\xC3\xA9"}));
  EXPECT_EQ(vocabulary.size(), 8u) << "two reserved ids and six words";
  EXPECT_EQ(vocabulary.idOf("<unk>"), 2);
  EXPECT_EQ(vocabulary.idOf("<s>"), 3);
  EXPECT_EQ(vocabulary.idOf("b"), 4);
  EXPECT_EQ(vocabulary.idOf("\xC3\xA9"), 7);
  EXPECT_EQ(vocabulary.idOf("d"), 2) << "below the minimum frequency: the unknown id";
  EXPECT_EQ(vocabulary.idOf(""), 2);
  EXPECT_EQ(vocabulary.minFrequency(), 2);
  EXPECT_EQ(vocabulary.unknownId(), 2);

  EXPECT_EQ(WordVocabulary::fit(counts, 1, specialLayout()).size(), 9u) << "d kept at 1";
  const WordVocabulary zero = WordVocabulary::fit(counts, 0, specialLayout());
  EXPECT_EQ(zero.size(), 9u) << "a minimum below 1 counts as 1";
  EXPECT_EQ(zero.minFrequency(), 0) << "but is kept as given";
  EXPECT_EQ(WordVocabulary::fit(counts, 4, specialLayout()).words(), (Words{"<unk>", "<s>"}));
  EXPECT_EQ(WordVocabulary::fit(WordCounts(), 1, paddedLayout()).size(), 1u);
}

TEST(WordVocabulary, IdsWithoutAWordReadAsTheUnknownId) {
  const WordVocabulary special = WordVocabulary::fit(countsOf({"w", "w"}), 2, specialLayout());
  EXPECT_EQ(special.wordOf(4), "w");
  EXPECT_EQ(special.wordOf(3), "<s>");
  EXPECT_EQ(special.wordOf(1), "<unk>") << "reserved";
  EXPECT_EQ(special.wordOf(5), "<unk>") << "past the end";
  EXPECT_EQ(special.wordOf(-7), "<unk>");

  const WordVocabulary padded = WordVocabulary::fit(countsOf({"w", "v"}), 1, paddedLayout());
  EXPECT_EQ(padded.words(), (Words{"v", "w"}));
  EXPECT_EQ(padded.idOf("w"), 2);
  EXPECT_EQ(padded.idOf("x"), 0);
  EXPECT_EQ(padded.wordOf(1), "v");
  EXPECT_EQ(padded.wordOf(0), "") << "the unknown id is reserved and has no word";
  EXPECT_EQ(padded.wordOf(3), "");

  const WordVocabulary none;
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.idOf("w"), 0);
  EXPECT_EQ(none.wordOf(0), "");
}

TEST(WordVocabulary, EmptyHasOnlyTheSpecialTokens) {
  const WordVocabulary vocabulary = WordVocabulary::empty(specialLayout(), 5);
  EXPECT_EQ(vocabulary.words(), (Words{"<unk>", "<s>"}));
  EXPECT_EQ(vocabulary.size(), 4u);
  EXPECT_EQ(vocabulary.minFrequency(), 5);
  EXPECT_EQ(vocabulary.idOf("<s>"), 3);
}

TEST(WordVocabulary, CopiesKeepTheirIndexWhenTheOriginalGoes) {
  WordVocabulary copy;
  {
    const WordVocabulary original =
        WordVocabulary::fit(countsOf({"alpha", "beta", "beta"}), 1, paddedLayout());
    copy = original;
  }
  EXPECT_EQ(copy.idOf("alpha"), 2);
  WordVocabulary constructed(copy);
  copy = WordVocabulary();
  EXPECT_EQ(constructed.idOf("beta"), 1);
  const WordVocabulary moved = std::move(constructed);
  EXPECT_EQ(moved.idOf("alpha"), 2);
}

TEST(WordVocabulary, RoundTripsThroughJson) {
  const WordVocabularyLayout layout = specialLayout();
  const WordVocabulary vocabulary = WordVocabulary::fit(countsOf({"q", "r", "q"}), 1, layout);
  nlohmann::json json = vocabulary.toJson(layout);
  EXPECT_EQ(json, nlohmann::json::parse(
                      R"({"type":"TestTokenizer","version":4,"min_count":1,
                          "list":["<unk>","<s>","q","r"]})"))
      << "the flags are the tokenizer's to write";
  EXPECT_FALSE(WordVocabulary::fromJson(json, "t.json", layout).ok());
  json["cased"] = true;
  json["strip"] = false;
  auto restored = WordVocabulary::fromJson(json, "t.json", layout);
  ASSERT_TRUE(restored.ok()) << restored.error();
  EXPECT_EQ(restored->words(), vocabulary.words());
  EXPECT_EQ(restored->idOf("r"), 5);
  EXPECT_EQ(restored->minFrequency(), 1);

  json.erase("min_count");
  auto defaulted = WordVocabulary::fromJson(json, "t.json", layout);
  ASSERT_TRUE(defaulted.ok()) << defaulted.error();
  EXPECT_EQ(defaulted->minFrequency(), 3) << "the layout's default";

  testing::FixtureFolder folder;
  const std::string path = folder.path("vocabulary.json");
  ASSERT_TRUE(writeJsonFile(path, json).ok());
  auto read = readJsonFile(path);
  ASSERT_TRUE(read.ok()) << read.error();
  auto loaded = WordVocabulary::fromJson(*read, path, layout);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->words(), vocabulary.words());
}

TEST(WordVocabulary, NamesTheFirstFaultOfABadFile) {
  const WordVocabularyLayout layout = specialLayout();
  const auto error = [&](std::string_view text) {
    auto json = parseJson(text, "v.json");
    if (!json.ok()) return json.error();
    auto loaded = WordVocabulary::fromJson(*json, "v.json", layout);
    return loaded.ok() ? std::string("loaded") : loaded.error();
  };
  const std::string head = R"({"type":"TestTokenizer","version":4,"cased":true,"strip":true,)";
  EXPECT_EQ(error(head + R"("list":["<unk>","<s>","y"]})"), "loaded");
  EXPECT_EQ(error("[]"), "v.json: expected a JSON object");
  EXPECT_EQ(error(R"({"type":"Other"})"), R"(v.json: "type" is not "TestTokenizer")");
  EXPECT_EQ(error(R"({"type":"TestTokenizer","version":1})"),
            R"(v.json: unsupported "version" (this build reads version 4))");
  EXPECT_EQ(error(R"({"type":"TestTokenizer","version":4,"cased":true,"min_count":0})"),
            R"(v.json: "strip" must be true or false)")
      << "the flags, in order, before the minimum frequency";
  EXPECT_EQ(error(head + R"("min_count":0,"list":[]})"),
            R"(v.json: "min_count" must be a positive integer)");
  EXPECT_EQ(error(head + R"("min_count":1000000001,"list":[]})"),
            R"(v.json: "min_count" must be a positive integer)");
  EXPECT_EQ(error(head + R"("list":{}})"), R"(v.json: "list" must be an array of strings)");
  EXPECT_EQ(error(head + R"("list":["<unk>","<s>","ax","a","a"]})"),
            "v.json: list[2] is not a non-empty string without x")
      << "a bad entry before a repeated one";
  EXPECT_EQ(error(head + R"("list":["<unk>",""]})"),
            "v.json: list[1] is not a non-empty string without x");
  EXPECT_EQ(error(head + R"("list":["<unk>","<t>"]})"), "v.json: list[1] must be <s>");
  EXPECT_EQ(error(head + R"("list":["<unk>"]})"),
            R"(v.json: "list" lacks the special tokens <unk> <s>)");
  EXPECT_EQ(error(head + R"("list":["<unk>","<s>","a","<s>"]})"),
            R"(v.json: "list" holds the same entry twice)");
}

// The run folders' tokenizer files, byte for byte as the tokenizers wrote them before they shared
// WordVocabulary: old run folders must open and new files must read the same everywhere.
std::string savedBytes(const Status& saved, const std::string& path) {
  EXPECT_TRUE(saved.ok()) << saved.error();
  auto bytes = readRegularFile(path, kMaxTokenizerJsonBytes);
  return bytes.ok() ? *bytes : bytes.error();
}

TEST(WordVocabulary, TokenizerFilesKeepTheirBytes) {
  testing::FixtureFolder folder;
  const std::string imdb_path = folder.path("tokenizer.json");
  const ImdbWordTokenizer imdb =
      ImdbWordTokenizer::fit(std::vector<std::string_view>{"b a b", "c a b"}, 2);
  EXPECT_EQ(savedBytes(imdb.save(imdb_path), imdb_path),
            "{\n \"min_freq\": 2,\n \"type\": \"ImdbWordTokenizer\",\n \"version\": 1,\n"
            " \"words\": [\n  \"b\",\n  \"a\"\n ]\n}\n");

  const std::string translation_path = folder.path("tokenizer_it.json");
  const TranslationWordTokenizer translation = TranslationWordTokenizer::fit(
      std::vector<std::string_view>{"Perché sì.", "perché no."}, 2, true);
  EXPECT_EQ(savedBytes(translation.save(translation_path), translation_path),
            "{\n \"lowercase\": true,\n \"min_frequency\": 2,\n"
            " \"spacing\": {\n  \"attach_left\": [\n   \".\"\n  ],\n  \"attach_right\": []\n },\n"
            " \"type\": \"TranslationWordTokenizer\",\n \"version\": 1,\n \"vocab\": [\n"
            "  \"[UNK]\",\n  \"[PAD]\",\n  \"[SOS]\",\n  \"[EOS]\",\n  \".\",\n"
            "  \"perch\xC3\xA9\"\n ]\n}\n");

  const std::string empty_path = folder.path("tokenizer_en.json");
  EXPECT_EQ(savedBytes(TranslationWordTokenizer().save(empty_path), empty_path),
            "{\n \"lowercase\": false,\n \"min_frequency\": 2,\n"
            " \"type\": \"TranslationWordTokenizer\",\n \"version\": 1,\n \"vocab\": [\n"
            "  \"[UNK]\",\n  \"[PAD]\",\n  \"[SOS]\",\n  \"[EOS]\"\n ]\n}\n");
}

}  // namespace
}  // namespace ascope
