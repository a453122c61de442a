// Translations written back as text: each token learns from the training sentences whether it is
// written against its neighbours, so a translation reads (and scores, against a raw reference) as
// the language writes it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/text/words/token_spacing.h"
#include "engine/text/words/translation_word_tokenizer.h"
#include "engine/text/words/whitespace_pre_tokenizer.h"

namespace ascope {
namespace {

std::vector<std::string> tokensOf(std::string_view text) {
  return WhitespacePreTokenizer::split(text, false);
}

const std::vector<std::string_view> kItalian{
    "signora presidente, l'ordine del giorno reca la discussione.",
    "l'unione europea deve agire (subito).",
    "la commissione dell'unione, l'altro giorno, ha detto: no!",
    "è l'ora di votare; grazie.",
    "il 35% dei voti (non di più).",
};

TEST(TokenSpacing, LearnedSpacingWritesTheTrainingSentencesBackAsTheyWere) {
  const TokenSpacing spacing = TokenSpacing::learn(kItalian, tokensOf);
  for (std::string_view sentence : kItalian) {
    EXPECT_EQ(spacing.join(tokensOf(sentence)), sentence);
  }
  EXPECT_TRUE(spacing.attachesLeft(","));
  EXPECT_TRUE(spacing.attachesRight("'"));
  EXPECT_TRUE(spacing.attachesLeft("'"));
  EXPECT_FALSE(spacing.attachesLeft("unione"));
  EXPECT_FALSE(spacing.attachesRight("la"));
}

TEST(TokenSpacing, WithoutLearningTheUsualRulesApply) {
  const TokenSpacing rules;
  EXPECT_EQ(rules.join({"l", "'", "uomo", ",", "disse", "(", "ieri", ")", "."}),
            "l'uomo, disse (ieri).");
  // A run of punctuation is one token: written as its first and its last character are.
  EXPECT_EQ(rules.join({"(", "ieri", ")."}), "(ieri).");
  EXPECT_EQ(rules.join({"disse", ":(", "no", ")"}), "disse:(no)");
  EXPECT_EQ(rules.join({}), "");
}

TEST(TokenSpacing, TheDataDecidesOverTheRulesWhenItHasSeenEnough) {
  // Europarl writes "tomorrow' s": the apostrophe hangs on the word before, a space follows.
  const std::vector<std::string_view> odd{"tomorrow' s sitting", "today' s vote",
                                          "the commission' s view", "the council' s answer"};
  const TokenSpacing spacing = TokenSpacing::learn(odd, tokensOf);
  EXPECT_EQ(spacing.join(tokensOf("yesterday' s debate")), "yesterday' s debate");
}

TEST(TokenSpacing, ItsJsonRoundTripsAndBadJsonIsNamed) {
  const TokenSpacing spacing = TokenSpacing::learn(kItalian, tokensOf);
  Expected<TokenSpacing> back = TokenSpacing::fromJson(spacing.toJson(), "t.json");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->join(tokensOf(kItalian[2])), kItalian[2]);
  EXPECT_TRUE(TokenSpacing().toJson().is_null());  // the usual rules store nothing
  EXPECT_FALSE(TokenSpacing::fromJson(nlohmann::json{{"attach_left", 3}}, "t.json").ok());
  EXPECT_EQ(TokenSpacing::fromJson(nlohmann::json::array(), "t.json").error(),
            "t.json: \"spacing\" must be an object");
}

TEST(TokenSpacing, TheTranslationTokenizerDetokenizesWithIt) {
  const TranslationWordTokenizer tokenizer = TranslationWordTokenizer::fit(kItalian, 1);
  const std::string sentence = "l'unione europea deve agire (subito).";
  EXPECT_EQ(tokenizer.detokenize(tokenizer.encode(sentence)), sentence);
  EXPECT_EQ(tokenizer.decode(tokenizer.encode(sentence)),
            "l ' unione europea deve agire ( subito ).");  // ")." is one token
  // Saved and read back: the spacing comes along; a file written before it gets the rules.
  Expected<TranslationWordTokenizer> back =
      TranslationWordTokenizer::fromJson(tokenizer.toJson(), "tok.json");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->detokenize(back->encode(sentence)), sentence);
  nlohmann::json old = tokenizer.toJson();
  old.erase("spacing");
  Expected<TranslationWordTokenizer> before = TranslationWordTokenizer::fromJson(old, "tok.json");
  ASSERT_TRUE(before.ok()) << before.error();
  EXPECT_EQ(before->detokenize(before->encode(sentence)), sentence);
}

}  // namespace
}  // namespace ascope
