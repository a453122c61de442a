#include "engine/text/words/translation_word_tokenizer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/text/pieces/translation_pair_filter.h"
#include "engine/text/words/whitespace_pre_tokenizer.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using Tokens = std::vector<std::string>;
using Ids = std::vector<std::int64_t>;

TEST(WhitespacePreTokenizer, SplitsWordsAndPunctuationLikeHuggingFace) {
  EXPECT_EQ(WhitespacePreTokenizer::split("Ciao, mondo!", false),
            (Tokens{"Ciao", ",", "mondo", "!"}));
  EXPECT_EQ(WhitespacePreTokenizer::split("l'uomo... disse: «Sì»?!", false),
            (Tokens{"l", "'", "uomo", "...", "disse", ":", "«", "Sì", "»?!"}));
  EXPECT_EQ(WhitespacePreTokenizer::split("perché è così_bello 42", false),
            (Tokens{"perché", "è", "così_bello", "42"}));
  EXPECT_EQ(WhitespacePreTokenizer::split("“Quote”\u00A0—\u2009dash", false),
            (Tokens{"“", "Quote", "”", "—", "dash"}));
  EXPECT_EQ(WhitespacePreTokenizer::split("  \t\n", false), Tokens{});
  EXPECT_EQ(WhitespacePreTokenizer::split("ÈCCO Ünd ΑΒΓ Жук Ĳ", true),
            (Tokens{"ècco", "ünd", "αβγ", "жук", "ĳ"}));
  EXPECT_EQ(WhitespacePreTokenizer::split("a\xFF"
                                          "b",
                                          false),
            (Tokens{"a", "\xEF\xBF\xBD", "b"}));
}

TranslationWordTokenizer fitTranslationExample() {
  // counts: "." 3, "il" 3, "gatto" 2, "cane" 2, "dorme" 1
  const std::vector<std::string_view> sentences = {"il gatto.", "il cane. il gatto", "cane dorme."};
  return TranslationWordTokenizer::fit(sentences);
}

TEST(TranslationWordTokenizer, SpecialTokensComeFirstThenByFrequencyThenBytes) {
  const TranslationWordTokenizer tokenizer = fitTranslationExample();
  EXPECT_EQ(tokenizer.idOf("[UNK]"), 0);
  EXPECT_EQ(tokenizer.idOf("[PAD]"), 1);
  EXPECT_EQ(tokenizer.idOf("[SOS]"), 2);
  EXPECT_EQ(tokenizer.idOf("[EOS]"), 3);
  EXPECT_EQ(tokenizer.tokenOf(4), ".");
  EXPECT_EQ(tokenizer.tokenOf(5), "il");
  EXPECT_EQ(tokenizer.tokenOf(6), "cane");
  EXPECT_EQ(tokenizer.tokenOf(7), "gatto");
  EXPECT_EQ(tokenizer.vocabSize(), 8u) << "dorme, seen once, is below min_frequency 2";
  EXPECT_EQ(tokenizer.tokenOf(-1), "[UNK]");
  EXPECT_EQ(tokenizer.tokenOf(100), "[UNK]");
  EXPECT_EQ(TranslationWordTokenizer().vocabSize(), 4u);
}

TEST(TranslationWordTokenizer, EncodesDecodesAndMapsUnknownToUnk) {
  const TranslationWordTokenizer tokenizer = fitTranslationExample();
  EXPECT_EQ(tokenizer.encode("il gatto dorme."), (Ids{5, 7, 0, 4}));
  EXPECT_EQ(tokenizer.encode("Il gatto"), (Ids{0, 7})) << "case matters unless lowercasing";
  EXPECT_EQ(tokenizer.tokens("il gatto dorme."), (Tokens{"il", "gatto", "dorme", "."}));
  EXPECT_EQ(tokenizer.decode({2, 5, 7, 0, 4, 3, 1, 1, 999}), "il gatto .");

  const TranslationWordTokenizer lower =
      TranslationWordTokenizer::fit(std::vector<std::string_view>{"Il gatto", "il Gatto"}, 2, true);
  EXPECT_TRUE(lower.lowercase());
  EXPECT_EQ(lower.encode("IL GATTO"), (Ids{5, 4})) << "gatto sorts before il";
}

TEST(TranslationWordTokenizer, RoundTripsThroughJsonAndFile) {
  const TranslationWordTokenizer tokenizer = fitTranslationExample();
  const nlohmann::json json = tokenizer.toJson();
  EXPECT_EQ(json["vocab"],
            (Tokens{"[UNK]", "[PAD]", "[SOS]", "[EOS]", ".", "il", "cane", "gatto"}));
  EXPECT_EQ(json["lowercase"], false);

  testing::FixtureFolder folder;
  const std::string path = folder.path("tokenizer_it.json");
  ASSERT_TRUE(tokenizer.save(path).ok());
  auto loaded = TranslationWordTokenizer::load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->encode("il cane dorme."), tokenizer.encode("il cane dorme."));
  EXPECT_EQ(loaded->minFrequency(), 2);

  const TranslationWordTokenizer copy = *loaded;
  *loaded = TranslationWordTokenizer();
  EXPECT_EQ(copy.idOf("gatto"), 7) << "a copy indexes its own vocabulary";
}

TEST(TranslationWordTokenizer, RejectsBadJsonWithAMessage) {
  const auto error = [](std::string_view text) {
    auto loaded = TranslationWordTokenizer::fromJsonText(text, "tok.json");
    return loaded.ok() ? std::string("loaded") : loaded.error();
  };
  const std::string head = R"({"type":"TranslationWordTokenizer","version":1,"lowercase":false,)";
  EXPECT_EQ(error(head + R"("vocab":["[UNK]","[PAD]","[SOS]","[EOS]","x"]})"), "loaded");
  EXPECT_NE(
      error(head + R"("vocab":["[PAD]","[UNK]","[SOS]","[EOS]"]})").find("vocab[0] must be [UNK]"),
      std::string::npos);
  EXPECT_NE(error(head + R"("vocab":["[UNK]","[PAD]"]})").find("lacks the special tokens"),
            std::string::npos);
  EXPECT_NE(error(head + R"("vocab":["[UNK]","[PAD]","[SOS]","[EOS]","x","x"]})").find("twice"),
            std::string::npos);
  EXPECT_NE(error(head + R"("vocab":["[UNK]","[PAD]","[SOS]","[EOS]",5]})").find("vocab[4]"),
            std::string::npos);
  EXPECT_NE(
      error(R"({"type":"TranslationWordTokenizer","version":1,"vocab":[]})").find("lowercase"),
      std::string::npos);
  EXPECT_NE(error("nul").find("not valid JSON"), std::string::npos);
}

TEST(TranslationPairFilter, DropsPairsThatDoNotFitWithSosAndEos) {
  const TranslationWordTokenizer source = fitTranslationExample();
  const TranslationWordTokenizer target = fitTranslationExample();
  const std::vector<TranslationPair> pairs = {
      {"il gatto", "il cane"},        // 2 + 2 <= 4: kept
      {"il gatto dorme", "il cane"},  // source 3 + 2 > 4: dropped
      {"il", "il cane dorme ."},      // target 4 + 2 > 4: dropped
      {"gatto.", "cane."},            // kept
  };
  const FilteredPairs filtered = filterPairsBySeqLen(pairs, source, target, 4);
  EXPECT_EQ(filtered.dropped, 2u);
  ASSERT_EQ(filtered.kept.size(), 2u);
  EXPECT_EQ(filtered.kept[0].source, "il gatto");
  EXPECT_EQ(filtered.kept[1].source, "gatto.");
  EXPECT_EQ(filterPairsBySeqLen(pairs, source, target, 1).dropped, 4u);
}

}  // namespace
}  // namespace ascope
