#include "engine/text/bert/bert_basic_tokenizer.h"

#include <gtest/gtest.h>

#include "engine/text/unicode/bert_unicode.h"
#include "engine/text/unicode/bert_unicode_data.h"

namespace ascope {
namespace {

using Words = std::vector<std::string>;

// Expected words come from Hugging Face's BasicTokenizer (transformers 4.26) on the same input.

TEST(BertBasicTokenizer, CleansLowercasesAndSplitsPunctuation) {
  const BertBasicTokenizer basic;
  EXPECT_EQ(basic.tokenize(std::string_view("Hello, World!  a\0b\ttab", 22)),
            (Words{"hello", ",", "world", "!", "ab", "tab"}));
  EXPECT_EQ(basic.tokenize("a\u1FEFb \u00BFqu\u00E9? x^y $5 a_b"),
            (Words{"a", "`", "b", "\u00BF", "que", "?", "x", "^", "y", "$", "5", "a", "_", "b"}));
  EXPECT_EQ(basic.tokenize("line\u2028sep\u00A0nb\u3000id"), (Words{"line", "sep", "nb", "id"}));
  EXPECT_EQ(basic.tokenize(""), Words{});
  EXPECT_EQ(basic.tokenize(" \t\r\n\x01\x7F"), Words{});
}

TEST(BertBasicTokenizer, StripsAccentsAfterLowercasing) {
  EXPECT_EQ(BertBasicTokenizer().tokenize("Ünïcödé résumé İ ǅ"),
            (Words{"unicode", "resume", "i", "ǆ"}));
  EXPECT_EQ(BertBasicTokenizer().tokenize("\u0301\u0301 x\u0301"), (Words{"x"}))
      << "a word of marks only disappears";
  EXPECT_EQ(BertBasicTokenizer().tokenize("ＡＢＣ Ⅻ \u212A"), (Words{"ａｂｃ", "ⅻ", "k"}));
  EXPECT_EQ(BertBasicTokenizer().tokenize("ひらがな 한"), (Words{"ひらかな", "한"}))
      << "dakuten are Mn; Hangul syllables decompose into jamo";
}

TEST(BertBasicTokenizer, CaseAndAccentSwitches) {
  BertNormalization cased;
  cased.lowercase = false;
  EXPECT_EQ(BertBasicTokenizer(cased).tokenize("Ünïcödé résumé"), (Words{"Ünïcödé", "résumé"}));
  cased.strip_accents = true;
  EXPECT_EQ(BertBasicTokenizer(cased).tokenize("Ünïcödé résumé"), (Words{"Unicode", "resume"}));
  BertNormalization keep_accents;
  keep_accents.strip_accents = false;
  EXPECT_EQ(BertBasicTokenizer(keep_accents).tokenize("Ünïcödé résumé"),
            (Words{"ünïcödé", "résumé"}));
}

TEST(BertBasicTokenizer, ChineseCharactersBecomeWords) {
  EXPECT_EQ(BertBasicTokenizer().tokenize("中文abc漢字 ひらがな"),
            (Words{"中", "文", "abc", "漢", "字", "ひらかな"}));
  BertNormalization off;
  off.handle_chinese_chars = false;
  EXPECT_EQ(BertBasicTokenizer(off).tokenize("中文abc漢字"), (Words{"中文abc漢字"}));
  EXPECT_TRUE(bert_unicode::isChineseCharacter(0x20000));
  EXPECT_TRUE(bert_unicode::isChineseCharacter(0xF900));
  EXPECT_FALSE(bert_unicode::isChineseCharacter(0x3042));  // hiragana
  EXPECT_FALSE(bert_unicode::isChineseCharacter(0xAC00));  // hangul
}

TEST(BertBasicTokenizer, NeverSplitIsCheckedAsWrittenAndAfterNormalizing) {
  const BertBasicTokenizer basic({}, {"[foo]", "don't"});
  EXPECT_EQ(basic.tokenize("[foo] [FOO] don't Don't dont'"),
            (Words{"[foo]", "[foo]", "don't", "don't", "dont", "'"}));
  EXPECT_TRUE(basic.isNeverSplit("[foo]"));
  EXPECT_FALSE(basic.isNeverSplit("[FOO]"));
}

TEST(BertBasicTokenizer, CleaningOffKeepsControlCharacters) {
  BertNormalization raw{false, true, true, std::nullopt};
  EXPECT_EQ(BertBasicTokenizer(raw).tokenize(std::string_view("a\0b c\x01", 6)),
            (Words{std::string("a\0b", 3), "c\x01"}));
}

TEST(BertBasicTokenizer, InvalidUtf8ReadsAsReplacementCharacters) {
  // U+FFFD is removed by cleaning, so the bytes around an invalid one join.
  EXPECT_EQ(BertBasicTokenizer().tokenize("ab\xFF"
                                          "cd \xE2\x82"
                                          "x"),
            (Words{"abcd", "x"}));
  BertNormalization raw{false, true, true, std::nullopt};
  EXPECT_EQ(BertBasicTokenizer(raw).tokenize("a\xC0"), (Words{"a\xEF\xBF\xBD"}));
}

TEST(BertUnicode, CharacterClassesMatchPython) {
  using namespace bert_unicode;
  EXPECT_STREQ(bert_unicode_data::kUnicodeVersion, "14.0.0");
  EXPECT_TRUE(isControl(0x00));
  EXPECT_FALSE(isControl('\t'));
  EXPECT_TRUE(isControl(0x200B));     // Cf
  EXPECT_TRUE(isControl(0xE000));     // Co
  EXPECT_TRUE(isControl(0x0378));     // Cn (unassigned in Unicode 14)
  EXPECT_FALSE(isControl(0x2028));    // Zl
  EXPECT_TRUE(isWhitespace(0x3000));  // Zs
  EXPECT_TRUE(isWhitespace(0x2029));
  EXPECT_FALSE(isWhitespace(0x200B));
  EXPECT_TRUE(isPunctuation('$'));
  EXPECT_TRUE(isPunctuation('`'));
  EXPECT_TRUE(isPunctuation(0x3002));   // ideographic full stop, Po
  EXPECT_FALSE(isPunctuation(0x20AC));  // euro sign, Sc
  EXPECT_TRUE(isNonspacingMark(0x0301));
  EXPECT_TRUE(isNonspacingMark(0xFE0F));
  EXPECT_FALSE(isNonspacingMark(0x0903));  // Mc
  EXPECT_EQ(combiningClass(0x0301), 230);
  EXPECT_EQ(combiningClass(0x0327), 202);
  EXPECT_EQ(combiningClass('a'), 0);
}

TEST(BertUnicode, DecomposesAndReordersAsNfd) {
  using namespace bert_unicode;
  std::u32string out;
  appendCanonicalDecomposition(0x1E69, out);  // ṩ → s + dot below + dot above
  EXPECT_EQ(out, (std::u32string{U's', 0x0323, 0x0307}));
  out.clear();
  appendCanonicalDecomposition(0xD4DB, out);  // 퓛 → ᄑ ᅱ ᆶ
  EXPECT_EQ(out, (std::u32string{0x1111, 0x1171, 0x11B6}));
  std::u32string marks = {U'a', 0x0301, 0x0327, U'b', 0x0307, 0x0323};
  reorderCombiningMarks(marks);
  EXPECT_EQ(marks, (std::u32string{U'a', 0x0327, 0x0301, U'b', 0x0323, 0x0307}));
  out.clear();
  appendLowercase(0x0130, out);
  appendLowercase(0x03A3, out);
  appendLowercase(0x1E9E, out);
  EXPECT_EQ(out, (std::u32string{U'i', 0x0307, 0x03C3, 0x00DF}));
}

}  // namespace
}  // namespace ascope
