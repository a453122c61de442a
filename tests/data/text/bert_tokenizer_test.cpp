#include "engine/text/bert/bert_tokenizer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/data/fixture_folder.h"
#include "tests/data/text/bert_fixture_files.h"

namespace ascope {
namespace {

using Ids = std::vector<std::int64_t>;
using Tokens = std::vector<std::string>;
using testing::bertBaseUncasedFromJson;
using testing::bertBaseUncasedFromVocab;
using testing::FixtureFolder;
using testing::readHfFixture;

struct HardString {
  std::string text;
  Ids ids;
};

/// llama.cpp's tokenizer test files: the inputs separated by "\n__ggml_vocab_test__\n" (the file
/// ends in one), and one line of space-separated ids per input.
std::vector<HardString> readHardStrings() {
  const std::string inputs = readHfFixture("ggml-vocab-bert-bge.gguf.inp");
  const std::string outputs = readHfFixture("ggml-vocab-bert-bge.gguf.out");
  const std::string separator = "\n__ggml_vocab_test__\n";
  std::vector<HardString> cases;
  std::size_t begin = 0;
  for (std::size_t at = inputs.find(separator); at != std::string::npos;
       at = inputs.find(separator, begin)) {
    cases.push_back({inputs.substr(begin, at - begin), {}});
    begin = at + separator.size();
  }
  std::istringstream lines(outputs);
  std::string line;
  for (HardString& c : cases) {
    if (!std::getline(lines, line)) break;
    std::istringstream numbers(line);
    for (std::int64_t id = 0; numbers >> id;) c.ids.push_back(id);
  }
  return cases;
}

TEST(BertTokenizer, MatchesAllHardStringsOfLlamaCppsBgeTest) {
  const std::vector<HardString> cases = readHardStrings();
  ASSERT_EQ(cases.size(), 46u);
  int matched = 0;
  for (const HardString& c : cases) {
    const Ids from_vocab = bertBaseUncasedFromVocab().encodeIds(c.text);
    const Ids from_json = bertBaseUncasedFromJson().encodeIds(c.text);
    EXPECT_EQ(from_vocab, c.ids) << "vocab.txt, input \"" << c.text << "\"";
    EXPECT_EQ(from_json, c.ids) << "tokenizer.json, input \"" << c.text << "\"";
    matched += from_vocab == c.ids && from_json == c.ids;
  }
  EXPECT_EQ(matched, 46);
}

TEST(BertTokenizer, KnownExamples) {
  const BertTokenizer& bert = bertBaseUncasedFromVocab();
  EXPECT_EQ(bert.encodeIds("brown fox jumps over the lazy dog"),
            (Ids{2829, 4419, 14523, 2058, 1996, 13971, 3899}));
  EXPECT_EQ(bert.encode("brown fox jumps over the lazy dog").ids,
            (Ids{101, 2829, 4419, 14523, 2058, 1996, 13971, 3899, 102}));
  const BertEncoding mask = bert.encode("Test sentence with [MASK].");
  EXPECT_EQ(mask.ids, (Ids{101, 3231, 6251, 2007, 103, 1012, 102}));
  EXPECT_EQ(mask.tokens, (Tokens{"[CLS]", "test", "sentence", "with", "[MASK]", ".", "[SEP]"}));
  EXPECT_EQ(mask.token_type_ids, Ids(7, 0));
  EXPECT_EQ(mask.attention_mask, Ids(7, 1));
}

TEST(BertTokenizer, SpecialTokenIdsOfBertBaseUncased) {
  for (const BertTokenizer* bert : {&bertBaseUncasedFromVocab(), &bertBaseUncasedFromJson()}) {
    EXPECT_EQ(bert->vocabSize(), 30522u);
    EXPECT_EQ(bert->padId(), 0);
    EXPECT_EQ(bert->unkId(), 100);
    EXPECT_EQ(bert->clsId(), 101);
    EXPECT_EQ(bert->sepId(), 102);
    EXPECT_EQ(bert->maskId(), 103);
    EXPECT_EQ(bert->idOf("##ing"), 2075);
    EXPECT_EQ(bert->tokenOf(2075), "##ing");
    EXPECT_EQ(bert->tokenOf(-1), "[UNK]");
    EXPECT_EQ(bert->tokenOf(30522), "[UNK]");
  }
}

TEST(BertTokenizer, VocabTxtAndTokenizerJsonGiveTheSameEncodings) {
  const std::vector<std::string> texts = {"The quick brown fox jumps over the lazy dog.",
                                          "Ünïcödé ÀÉÎÕÜ façade",
                                          "我想在apple工作",
                                          "a[MASK]b [SEP]",
                                          "😀 emoji\u200d and\tcontrol\x01chars",
                                          std::string(120, 'z'),
                                          "playing running unaffable",
                                          ""};
  for (const std::string& text : texts) {
    const BertEncoding a = bertBaseUncasedFromVocab().encodePair(text, "second part");
    const BertEncoding b = bertBaseUncasedFromJson().encodePair(text, "second part");
    EXPECT_EQ(a.ids, b.ids) << text;
    EXPECT_EQ(a.tokens, b.tokens) << text;
    EXPECT_EQ(a.token_type_ids, b.token_type_ids) << text;
  }
  EXPECT_EQ(bertBaseUncasedFromJson().settings().normalization.lowercase, true);
  EXPECT_FALSE(bertBaseUncasedFromJson().settings().normalization.strip_accents.has_value());
}

TEST(BertTokenizer, TokensKeepTheContinuationPrefix) {
  const BertTokenizer& bert = bertBaseUncasedFromVocab();
  EXPECT_EQ(bert.tokenize("unaffable playing"), (Tokens{"una", "##ffa", "##ble", "playing"}));
  EXPECT_EQ(bert.tokenize("Ἀθῆναι"), (Tokens{"α", "##θ", "##η", "##ν", "##α", "##ι"}));
}

TEST(BertTokenizer, PairHasTokenTypesZeroThenOne) {
  const BertEncoding pair = bertBaseUncasedFromVocab().encodePair("How old are you?", "I am 6");
  EXPECT_EQ(pair.tokens,
            (Tokens{"[CLS]", "how", "old", "are", "you", "?", "[SEP]", "i", "am", "6", "[SEP]"}));
  EXPECT_EQ(pair.token_type_ids, (Ids{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(pair.attention_mask, Ids(11, 1));
}

TEST(BertTokenizer, TruncatesPairsLongestFirstAndPads) {
  const BertTokenizer& bert = bertBaseUncasedFromVocab();
  BertEncodeOptions options;
  options.max_length = 9;
  // 8 + 2 words: the first loses tokens until it is no longer longer than the second.
  EXPECT_EQ(bert.encodePair("a b c d e f g h", "i j", options).tokens,
            (Tokens{"[CLS]", "a", "b", "c", "d", "[SEP]", "i", "j", "[SEP]"}));
  // On a tie the second loses first.
  options.max_length = 8;
  EXPECT_EQ(bert.encodePair("a b c d", "e f g h", options).tokens,
            (Tokens{"[CLS]", "a", "b", "c", "[SEP]", "e", "f", "[SEP]"}));

  options.max_length = 10;
  options.pad_to_max_length = true;
  const BertEncoding padded = bert.encodePair("a", "b", options);
  EXPECT_EQ(padded.tokens, (Tokens{"[CLS]", "a", "[SEP]", "b", "[SEP]", "[PAD]", "[PAD]", "[PAD]",
                                   "[PAD]", "[PAD]"}));
  EXPECT_EQ(padded.ids, (Ids{101, 1037, 102, 1038, 102, 0, 0, 0, 0, 0}));
  EXPECT_EQ(padded.token_type_ids, (Ids{0, 0, 0, 1, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(padded.attention_mask, (Ids{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}));
}

TEST(BertTokenizer, TruncatesASingleTextFromItsEnd) {
  const BertTokenizer& bert = bertBaseUncasedFromVocab();
  BertEncodeOptions options;
  options.max_length = 5;
  EXPECT_EQ(bert.encode("one two three four five", options).tokens,
            (Tokens{"[CLS]", "one", "two", "three", "[SEP]"}));
  options.truncate = false;
  EXPECT_EQ(bert.encode("one two three four five", options).ids.size(), 7u);
  // Below the special-token count only they are left (Hugging Face would log an error and keep
  // the whole text).
  options.truncate = true;
  options.max_length = 1;
  EXPECT_EQ(bert.encode("one two", options).tokens, (Tokens{"[CLS]", "[SEP]"}));
  EXPECT_EQ(bert.encodePair("one", "two", options).tokens, (Tokens{"[CLS]", "[SEP]", "[SEP]"}));
}

TEST(BertTokenizer, ModelMaxLengthIsTheDefaultLimit) {
  FixtureFolder folder;
  folder.write("vocab.txt", readHfFixture("bert-base-uncased.vocab.txt"));
  folder.write("tokenizer_config.json", R"({"do_lower_case": true, "model_max_length": 6})");
  auto bert = BertTokenizer::fromFolder(folder.path());
  ASSERT_TRUE(bert.ok()) << bert.error();
  EXPECT_EQ(bert->settings().model_max_length, std::optional<std::size_t>(6));
  BertEncodeOptions options;
  options.pad_to_max_length = true;
  EXPECT_EQ(bert->encode("a b c d e f g h", options).tokens,
            (Tokens{"[CLS]", "a", "b", "c", "d", "[SEP]"}));
  EXPECT_EQ(bert->encode("a", options).tokens,
            (Tokens{"[CLS]", "a", "[SEP]", "[PAD]", "[PAD]", "[PAD]"}));
}

TEST(BertTokenizer, WithoutSpecialTokens) {
  BertEncodeOptions options;
  options.add_special_tokens = false;
  const BertEncoding pair = bertBaseUncasedFromVocab().encodePair("a b", "c", options);
  EXPECT_EQ(pair.tokens, (Tokens{"a", "b", "c"}));
  EXPECT_EQ(pair.token_type_ids, (Ids{0, 0, 0})) << "as Hugging Face: all 0 without [SEP]";
}

TEST(BertTokenizer, DecodesLikeHuggingFace) {
  const BertTokenizer& bert = bertBaseUncasedFromVocab();
  const BertEncoding encoded = bert.encode("Hello , world ! isn't it [MASK] ? unaffable");
  EXPECT_EQ(bert.decode(encoded.ids), "[CLS] hello, world! isn't it [MASK]? unaffable [SEP]");
  EXPECT_EQ(bert.decode(encoded.ids, true), "hello, world! isn't it? unaffable");
  EXPECT_EQ(bert.decode({2075, 1037, 2075}), "##ing aing");
  EXPECT_EQ(bert.decode({}), "");
}

TEST(BertTokenizer, CasedFolderKeepsCaseAndAccents) {
  FixtureFolder folder;
  folder.write("vocab.txt", readHfFixture("bert-base-uncased.vocab.txt"));
  folder.write("tokenizer_config.json",
               R"({"do_lower_case": false, "model_max_length": 1e30, "never_split": ["HELLO"],
                   "mask_token": {"__type": "AddedToken", "content": "[MASK]"}})");
  auto bert = BertTokenizer::fromFolder(folder.path());
  ASSERT_TRUE(bert.ok()) << bert.error();
  EXPECT_FALSE(bert->settings().model_max_length.has_value()) << "1e30 means no limit";
  // The uncased vocabulary has no capitals and no "é": cased words and accents are unknown (as
  // with Hugging Face's BertTokenizer(do_lower_case=False, never_split=["HELLO"])).
  EXPECT_EQ(bert->tokenize("The café HELLO"), (Tokens{"[UNK]", "[UNK]", "[UNK]"}));
  EXPECT_EQ(bert->tokenize("the cafe"), (Tokens{"the", "cafe"}));
}

TEST(BertTokenizer, FolderPrefersTokenizerJsonAndAppliesTheConfig) {
  FixtureFolder folder;
  folder.write("tokenizer.json", readHfFixture("bert-base-uncased.tokenizer.json"));
  folder.write("vocab.txt", "not used\n");
  folder.write("tokenizer_config.json", R"({"strip_accents": false})");
  auto bert = BertTokenizer::fromFolder(folder.path());
  ASSERT_TRUE(bert.ok()) << bert.error();
  EXPECT_EQ(bert->vocabSize(), 30522u);
  // Lowercased but not stripped: "café" and "naïve" are not in the vocabulary.
  EXPECT_EQ(bert->tokenize("Café naïve Cafe"), (Tokens{"[UNK]", "[UNK]", "cafe"}));
}

TEST(BertTokenizer, CopiesAndMovesKeepWorking) {
  const BertTokenizer& original = bertBaseUncasedFromVocab();
  BertTokenizer copy = original;
  BertTokenizer moved = std::move(copy);
  BertTokenizer assigned = moved;
  assigned = moved;
  EXPECT_EQ(assigned.encodeIds("playing unaffable"), original.encodeIds("playing unaffable"));
}

}  // namespace
}  // namespace ascope
