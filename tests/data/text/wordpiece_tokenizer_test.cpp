#include "engine/text/bert/wordpiece_tokenizer.h"

#include <gtest/gtest.h>

namespace ascope {
namespace {

using Pieces = std::vector<std::string>;
using Ids = std::vector<std::int64_t>;

WordPieceTokenizer make(std::vector<std::string> tokens, WordPieceSettings settings = {}) {
  auto tokenizer = WordPieceTokenizer::create(std::move(tokens), std::move(settings), "test");
  EXPECT_TRUE(tokenizer.ok()) << tokenizer.error();
  return std::move(tokenizer.value());
}

TEST(WordPieceTokenizer, GreedyLongestMatchFirst) {
  const WordPieceTokenizer pieces =
      make({"[UNK]", "un", "##aff", "##able", "u", "##n", "##a", "##ff", "aff", "é", "##é"});
  EXPECT_EQ(pieces.tokenize("unaffable"), (Pieces{"un", "##aff", "##able"}));
  EXPECT_EQ(pieces.tokenize("una"), (Pieces{"un", "##a"}));
  EXPECT_EQ(pieces.tokenize("éé"), (Pieces{"é", "##é"})) << "pieces end on code points";
  EXPECT_EQ(pieces.tokenize("unx"), (Pieces{"[UNK]"})) << "one unmatched piece: the whole word";
  EXPECT_EQ(pieces.tokenize(""), Pieces{});
  Ids ids = {7};
  pieces.appendIds("unaffable", ids);
  EXPECT_EQ(ids, (Ids{7, 1, 2, 3}));
}

TEST(WordPieceTokenizer, WordsOverTheCharacterLimitAreUnknown) {
  WordPieceSettings settings;
  settings.max_input_chars_per_word = 4;
  const WordPieceTokenizer pieces = make({"[UNK]", "a", "##a", "é", "##é"}, settings);
  EXPECT_EQ(pieces.tokenize("aaaa"), (Pieces{"a", "##a", "##a", "##a"}));
  EXPECT_EQ(pieces.tokenize("aaaaa"), (Pieces{"[UNK]"}));
  EXPECT_EQ(pieces.tokenize("éééé"), (Pieces{"é", "##é", "##é", "##é"})) << "counts characters";
}

TEST(WordPieceTokenizer, OtherPrefixAndUnknownToken) {
  WordPieceSettings settings;
  settings.unk_token = "<unk>";
  settings.continuing_subword_prefix = "@@";
  const WordPieceTokenizer pieces = make({"<unk>", "play", "@@ing", "##ing"}, settings);
  EXPECT_EQ(pieces.tokenize("playing"), (Pieces{"play", "@@ing"}));
  EXPECT_EQ(pieces.unkId(), 0);
  EXPECT_EQ(pieces.idOf("##ing"), 3);
  EXPECT_EQ(pieces.idOf("nothing"), -1);
}

TEST(WordPieceTokenizer, RefusesDuplicatesAndAMissingUnknownToken) {
  auto duplicate = WordPieceTokenizer::create({"[UNK]", "a", "b", "a"}, {}, "v.txt");
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.error(), "v.txt: token \"a\" has two ids, 1 and 3");
  auto no_unk = WordPieceTokenizer::create({"a", "b"}, {}, "v.txt");
  ASSERT_FALSE(no_unk.ok());
  EXPECT_EQ(no_unk.error(), "v.txt: the unknown token \"[UNK]\" is not in the vocabulary");
}

TEST(WordPieceTokenizer, CopiesRebuildTheirIndex) {
  WordPieceTokenizer copy;
  {
    const WordPieceTokenizer original = make({"[UNK]", "un", "##aff", "##able"});
    copy = original;
  }
  EXPECT_EQ(copy.tokenize("unaffable"), (Pieces{"un", "##aff", "##able"}));
}

}  // namespace
}  // namespace ascope
