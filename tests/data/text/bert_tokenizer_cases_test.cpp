// The C++ tokenizer against Hugging Face's Python BertTokenizer on the cases that
// scripts/generate_bert_tokenizer_cases.py recorded in tests/fixtures/hf/bert_tokenizer_cases.json.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/text/bert/bert_tokenizer.h"
#include "tests/data/text/bert_fixture_files.h"

namespace ascope {
namespace {

using Ids = std::vector<std::int64_t>;
using nlohmann::json;

BertEncodeOptions optionsOf(const json& options) {
  BertEncodeOptions out;
  out.add_special_tokens = options.value("add_special_tokens", true);
  out.truncate = options.value("truncation", false);
  out.max_length = options.value("max_length", std::size_t{0});
  out.pad_to_max_length = options.value("padding", std::string()) == "max_length";
  return out;
}

json readCases() {
  return json::parse(testing::readHfFixture("bert_tokenizer_cases.json"));
}

void checkAllCases(const BertTokenizer& bert) {
  const json document = readCases();
  const json& cases = document.at("cases");
  ASSERT_GE(cases.size(), 60u);
  std::size_t matched = 0;
  for (const json& c : cases) {
    const std::string text = c.at("text").get<std::string>();
    const BertEncodeOptions options = optionsOf(c.at("options"));
    const BertEncoding encoding =
        c.at("text_pair").is_null()
            ? bert.encode(text, options)
            : bert.encodePair(text, c.at("text_pair").get<std::string>(), options);
    const std::string label = c.dump(-1, ' ', true).substr(0, 200);
    EXPECT_EQ(encoding.ids, c.at("ids").get<Ids>()) << label;
    EXPECT_EQ(encoding.tokens, c.at("tokens").get<std::vector<std::string>>()) << label;
    EXPECT_EQ(encoding.token_type_ids, c.at("token_type_ids").get<Ids>()) << label;
    EXPECT_EQ(encoding.attention_mask, c.at("attention_mask").get<Ids>()) << label;
    EXPECT_EQ(bert.decode(encoding.ids), c.at("decoded").get<std::string>()) << label;
    EXPECT_EQ(bert.decode(encoding.ids, true), c.at("decoded_skipping_special").get<std::string>())
        << label;
    matched += encoding.ids == c.at("ids").get<Ids>();
  }
  EXPECT_EQ(matched, cases.size());
}

TEST(BertTokenizerCases, VocabTxtMatchesHuggingFacesPythonTokenizer) {
  checkAllCases(testing::bertBaseUncasedFromVocab());
}

TEST(BertTokenizerCases, TokenizerJsonMatchesHuggingFacesPythonTokenizer) {
  checkAllCases(testing::bertBaseUncasedFromJson());
}

}  // namespace
}  // namespace ascope
