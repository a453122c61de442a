// Loading BERT tokenizers from Hugging Face's files, and the errors for files that are wrong.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/text/bert/bert_tokenizer.h"
#include "engine/text/bert/bert_vocab_txt.h"
#include "tests/data/fixture_folder.h"
#include "tests/data/text/bert_fixture_files.h"

namespace ascope {
namespace {

using Tokens = std::vector<std::string>;
using nlohmann::json;
using testing::FixtureFolder;

const std::string kSmallVocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\nworld\n##s\n";

/// A valid tokenizer.json over kSmallVocab, to break one field at a time.
json smallTokenizerJson() {
  return json::parse(R"({
    "version": "1.0", "truncation": null, "padding": null,
    "added_tokens": [{"id": 4, "content": "[MASK]", "single_word": false, "lstrip": false,
                      "rstrip": false, "normalized": false, "special": true}],
    "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                   "strip_accents": null, "lowercase": true},
    "pre_tokenizer": {"type": "BertPreTokenizer"},
    "post_processor": {"type": "TemplateProcessing",
      "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                 {"SpecialToken": {"id": "[SEP]", "type_id": 0}}]},
    "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": true},
    "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
              "max_input_chars_per_word": 100,
              "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "hello": 5,
                        "world": 6, "##s": 7}}
  })");
}

std::string loadErrorOf(const json& tokenizer_json) {
  auto loaded = BertTokenizer::fromTokenizerJsonText(tokenizer_json.dump(), "tokenizer.json");
  return loaded.ok() ? std::string("(loaded)") : loaded.error();
}

TEST(BertVocabTxt, LinesAreIdsWhateverTheLineEnding) {
  auto tokens = parseVocabTxt("a\r\nb\rc\n\nd", "vocab.txt");
  ASSERT_TRUE(tokens.ok()) << tokens.error();
  EXPECT_EQ(*tokens, (Tokens{"a", "b", "c", "", "d"}));
  EXPECT_EQ(parseVocabTxt("", "vocab.txt")->size(), 0u);
}

TEST(BertVocabTxt, ErrorsNameTheLine) {
  auto duplicate = parseVocabTxt("[UNK]\nthe\nof\nthe\n", "vocab.txt");
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.error(), "vocab.txt: line 4 repeats the token \"the\" of line 2");
  auto binary = parseVocabTxt("[UNK]\nok\nb\xFFzz\n", "vocab.txt");
  ASSERT_FALSE(binary.ok());
  EXPECT_EQ(binary.error(), "vocab.txt: line 3 is not UTF-8");
}

TEST(BertTokenizerFiles, MissingFilesAndFolders) {
  FixtureFolder folder;
  auto missing = BertTokenizer::fromVocabFile(folder.path("vocab.txt"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find(folder.path("vocab.txt")), std::string::npos) << missing.error();
  auto missing_json = BertTokenizer::fromTokenizerJsonFile(folder.path("tokenizer.json"));
  ASSERT_FALSE(missing_json.ok());
  EXPECT_NE(missing_json.error().find("tokenizer.json"), std::string::npos);
  auto empty_folder = BertTokenizer::fromFolder(folder.path());
  ASSERT_FALSE(empty_folder.ok());
  EXPECT_EQ(empty_folder.error(), folder.path() + ": no tokenizer.json or vocab.txt in the folder");
  auto a_folder = BertTokenizer::fromVocabFile(folder.makeFolder("vocab_dir"));
  ASSERT_FALSE(a_folder.ok());
}

TEST(BertTokenizerFiles, VocabWithoutRequiredSpecialTokens) {
  auto no_unk = BertTokenizer::fromVocabText("[PAD]\n[CLS]\n[SEP]\nhello\n", "vocab.txt");
  ASSERT_FALSE(no_unk.ok());
  EXPECT_EQ(no_unk.error(), "vocab.txt: the unknown token \"[UNK]\" is not in the vocabulary");
  auto no_cls = BertTokenizer::fromVocabText("[PAD]\n[UNK]\n[SEP]\n", "vocab.txt");
  ASSERT_FALSE(no_cls.ok());
  EXPECT_EQ(no_cls.error(),
            "vocab.txt: the classification token \"[CLS]\" is not in the vocabulary");
  auto no_mask = BertTokenizer::fromVocabText("[PAD]\n[UNK]\n[CLS]\n[SEP]\nx\n", "vocab.txt");
  ASSERT_TRUE(no_mask.ok()) << "a mask token is optional";
  EXPECT_EQ(no_mask->maskId(), -1);
  EXPECT_EQ(no_mask->tokenize("[MASK] x"), (Tokens{"[UNK]", "[UNK]", "[UNK]", "x"}));
}

TEST(BertTokenizerFiles, SmallTokenizerJsonLoads) {
  auto loaded = BertTokenizer::fromTokenizerJsonText(smallTokenizerJson().dump(), "t.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->encode("Hello worlds [MASK]").tokens,
            (Tokens{"[CLS]", "hello", "world", "##s", "[MASK]", "[SEP]"}));
  auto from_vocab = BertTokenizer::fromVocabText(kSmallVocab, "vocab.txt");
  ASSERT_TRUE(from_vocab.ok()) << from_vocab.error();
  EXPECT_EQ(from_vocab->encodeIds("Hello worlds [MASK]"), loaded->encodeIds("Hello worlds [MASK]"));
}

TEST(BertTokenizerFiles, MalformedJson) {
  auto broken = BertTokenizer::fromTokenizerJsonText("{\"model\": {", "tokenizer.json");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().rfind("tokenizer.json: not valid JSON", 0), 0u) << broken.error();
  auto array = BertTokenizer::fromTokenizerJsonText("[1, 2]", "tokenizer.json");
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.error(), "tokenizer.json: not a JSON object");
  auto deep = BertTokenizer::fromTokenizerJsonText(std::string(100, '['), "tokenizer.json");
  ASSERT_FALSE(deep.ok());
}

TEST(BertTokenizerFiles, TokenizerJsonFieldErrors) {
  json j = smallTokenizerJson();
  j.erase("model");
  EXPECT_EQ(loadErrorOf(j), "tokenizer.json: no \"model\"");

  j = smallTokenizerJson();
  j["model"]["type"] = "BPE";
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: model.type is \"BPE\"; only WordPiece models (BERT) are supported");

  j = smallTokenizerJson();
  j["model"]["vocab"] = json::array();
  EXPECT_EQ(loadErrorOf(j), "tokenizer.json: model.vocab must be an object of token: id");

  j = smallTokenizerJson();
  j["model"]["vocab"]["##s"] = -3;
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: model.vocab: \"##s\" has id -3, not a non-negative integer");

  j = smallTokenizerJson();
  j["model"]["vocab"]["##s"] = 6;
  EXPECT_EQ(loadErrorOf(j), "tokenizer.json: model.vocab: \"##s\" and \"world\" both have id 6");

  j = smallTokenizerJson();
  j["model"]["vocab"]["##s"] = 70;
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: model.vocab: \"##s\" has id 70, past the end of the 8 tokens (ids "
            "must run from 0 without gaps)");

  j = smallTokenizerJson();
  j["model"]["unk_token"] = "<unk>";
  EXPECT_EQ(loadErrorOf(j), "tokenizer.json: the unknown token \"<unk>\" is not in the vocabulary");

  j = smallTokenizerJson();
  j["model"]["max_input_chars_per_word"] = "many";
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: model.max_input_chars_per_word must be a non-negative integer, not "
            "\"many\"");

  j = smallTokenizerJson();
  j["normalizer"]["lowercase"] = "yes";
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: normalizer.lowercase must be true or false, not \"yes\"");

  j = smallTokenizerJson();
  j["normalizer"] = {{"type", "NFC"}};
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: normalizer.type is \"NFC\"; only BertNormalizer is supported");

  j = smallTokenizerJson();
  j["pre_tokenizer"] = {{"type", "Whitespace"}};
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: pre_tokenizer is {\"type\":\"Whitespace\"}; only BertPreTokenizer "
            "is supported");

  j = smallTokenizerJson();
  j["added_tokens"][0]["id"] = 6;
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: added_tokens[0]: \"[MASK]\" has id 6 but model.vocab gives it 4");

  j = smallTokenizerJson();
  j["added_tokens"][0]["content"] = "";
  EXPECT_EQ(loadErrorOf(j), "tokenizer.json: added_tokens[0].content must be a non-empty string");

  j = smallTokenizerJson();
  j["post_processor"]["single"].erase(0);
  EXPECT_EQ(loadErrorOf(j),
            "tokenizer.json: post_processor.single: only the template [CLS] $A [SEP] is "
            "supported");
}

TEST(BertTokenizerFiles, AddedTokensBeyondTheVocabulary) {
  json j = smallTokenizerJson();
  j["added_tokens"].push_back({{"id", 8}, {"content", "<new>"}, {"special", false}});
  auto loaded = BertTokenizer::fromTokenizerJsonText(j.dump(), "tokenizer.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->vocabSize(), 9u);
  EXPECT_EQ(loaded->tokenize("hello<new>world"), (Tokens{"hello", "<new>", "world"}));
}

TEST(BertTokenizerFiles, OtherNormalizerAndProcessorSettings) {
  json j = smallTokenizerJson();
  j["normalizer"] = nullptr;
  j["post_processor"] = {{"type", "BertProcessing"}, {"sep", {"[MASK]", 4}}, {"cls", {"[CLS]", 2}}};
  auto loaded = BertTokenizer::fromTokenizerJsonText(j.dump(), "tokenizer.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_FALSE(loaded->settings().normalization.lowercase);
  EXPECT_EQ(loaded->encode("hello Hello").tokens, (Tokens{"[CLS]", "hello", "[UNK]", "[MASK]"}));
}

TEST(BertTokenizerFiles, TokenizerConfigErrors) {
  FixtureFolder folder;
  folder.write("vocab.txt", kSmallVocab);
  const auto error_with = [&](const std::string& config) {
    folder.write("tokenizer_config.json", config);
    auto loaded = BertTokenizer::fromFolder(folder.path());
    return loaded.ok() ? std::string("(loaded)") : loaded.error();
  };
  const std::string name = folder.path("tokenizer_config.json");
  EXPECT_EQ(error_with(R"({"do_lower_case": "yes"})"),
            name + ": do_lower_case must be true or false, not \"yes\"");
  EXPECT_EQ(error_with(R"({"strip_accents": 1})"),
            name + ": strip_accents must be true, false or null, not 1");
  EXPECT_EQ(error_with(R"({"model_max_length": -5})"),
            name + ": model_max_length must be a positive number, not -5");
  EXPECT_EQ(error_with(R"({"do_basic_tokenize": false})"),
            name + ": do_basic_tokenize false is not supported");
  EXPECT_EQ(error_with(R"({"mask_token": 7})"), name + ": mask_token must be a token, not 7");
  EXPECT_EQ(error_with(R"({"never_split": "x"})"),
            name + ": never_split must be a list of tokens or null");
  EXPECT_EQ(error_with(R"({"additional_special_tokens": ["<x>"]})"),
            folder.path() + ": the added token \"<x>\" is not in the vocabulary");
  EXPECT_EQ(error_with("{").rfind(name + ": not valid JSON: ", 0), 0u);
  EXPECT_EQ(error_with(R"({"model_max_length": null, "never_split": null, "unk_token": null})"),
            "(loaded)");
}

TEST(BertTokenizerFiles, ReadsTheRealSavePretrainedConfig) {
  FixtureFolder folder;
  folder.write("vocab.txt", testing::readHfFixture("bert-base-uncased.vocab.txt"));
  folder.write("tokenizer_config.json", R"({
    "added_tokens_decoder": {"0": {"content": "[PAD]", "lstrip": false, "normalized": false,
                                   "rstrip": false, "single_word": false, "special": true}},
    "clean_up_tokenization_spaces": true, "cls_token": "[CLS]", "do_basic_tokenize": true,
    "do_lower_case": true, "mask_token": "[MASK]", "model_max_length": 512,
    "never_split": null, "pad_token": "[PAD]", "sep_token": "[SEP]", "strip_accents": null,
    "tokenize_chinese_chars": true, "tokenizer_class": "BertTokenizer", "unk_token": "[UNK]"})");
  auto loaded = BertTokenizer::fromFolder(folder.path());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->settings().model_max_length, std::optional<std::size_t>(512));
  EXPECT_EQ(loaded->encode("Test sentence with [MASK].").ids,
            (std::vector<std::int64_t>{101, 3231, 6251, 2007, 103, 1012, 102}));
}

}  // namespace
}  // namespace ascope
