// Subword pieces: learned from the run's sentences the same way twice, read back from their file,
// words split into pieces instead of [UNK], and a bad model file refused naming it.
#include "engine/text/pieces/sentence_piece_model.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "engine/builtin/english_italian_phrases.h"
#include "engine/text/pieces/piece_model_tables.h"
#include "engine/text/pieces/translation_tokenizer.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using Ids = std::vector<std::int64_t>;

class SentencePieceModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!SentencePieceModel::available()) GTEST_SKIP() << "built without SentencePiece";
    const TranslationDataset data = generateEnglishItalianPhrases({400, 10, 1});
    for (const TranslationPair& p : data.train) english_.push_back(p.source);
  }
  std::vector<std::string_view> sentences() const { return {english_.begin(), english_.end()}; }
  SentencePieceModel learn(int size = 320, const std::string& algorithm = "unigram") const {
    Expected<SentencePieceModel> model =
        SentencePieceModel::train(sentences(), {size, algorithm, 7});
    EXPECT_TRUE(model.ok()) << model.error();
    return std::move(*model);
  }
  std::vector<std::string> english_;
};

TEST_F(SentencePieceModelTest, TheSameSentencesAndSeedGiveTheSamePieces) {
  for (const char* algorithm : {"unigram", "bpe"}) {
    const SentencePieceModel a = learn(320, algorithm), b = learn(320, algorithm);
    EXPECT_EQ(a.bytes(), b.bytes()) << algorithm;
    EXPECT_EQ(a.vocabSize(), 320u) << algorithm;
  }
}

TEST_F(SentencePieceModelTest, SpecialTokensHaveTheTranslationIds) {
  const SentencePieceModel m = learn();
  EXPECT_EQ(m.pieceOf(0), "[UNK]");
  EXPECT_EQ(m.pieceOf(1), "[PAD]");
  EXPECT_EQ(m.pieceOf(2), "[SOS]");
  EXPECT_EQ(m.pieceOf(3), "[EOS]");
  EXPECT_EQ(m.pieceOf(-1), "[UNK]");
  EXPECT_EQ(m.pieceOf(100000), "[UNK]");
}

TEST_F(SentencePieceModelTest, EncodesAndDecodesTextBackUnknownWordsIncluded) {
  const SentencePieceModel m = learn();
  for (const std::string& text : {english_[0], english_[5], std::string("the zebra ate 42 kiwis"),
                                  std::string("naïve café — ✓")}) {
    const Ids ids = m.encode(text);
    ASSERT_FALSE(ids.empty()) << text;
    // Byte fallback: a character never seen is bytes, never [UNK].
    for (std::int64_t id : ids) EXPECT_NE(id, SentencePieceModel::kUnkId) << text;
    EXPECT_EQ(m.decode(ids), text);
  }
  // Special ids and ids out of range are left out of the text.
  Ids with_specials = m.encode("the cat");
  with_specials.insert(with_specials.begin(), SentencePieceModel::kSosId);
  with_specials.push_back(SentencePieceModel::kEosId);
  with_specials.push_back(99999);
  EXPECT_EQ(m.decode(with_specials), "the cat");
}

TEST_F(SentencePieceModelTest, LabelsMarkWordStartsAndContinuations) {
  const SentencePieceModel m = learn();
  const Ids ids = m.encode("zebra");  // never seen: split into several pieces
  ASSERT_GE(ids.size(), 2u);
  EXPECT_TRUE(m.startsWord(ids.front()));
  std::string word;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::string label = m.labelOf(ids[i]);
    EXPECT_EQ(label.find("\xE2\x96\x81"), std::string::npos) << label;  // no ▁ shown
    EXPECT_EQ(label.find("<0x"), std::string::npos) << label;  // 'z' is in no piece: a byte
    if (i == 0) {
      EXPECT_NE(label.rfind("##", 0), 0u) << label;
      // "z" was never seen: the word starts with a lone word start, then the byte of 'z'.
      if (label != SentencePieceModel::kLoneWordStart) word += label;
    } else {
      EXPECT_FALSE(m.startsWord(ids[i]));
      ASSERT_EQ(label.rfind("##", 0), 0u) << label;
      word += label.substr(2);
    }
  }
  EXPECT_EQ(word, "zebra");
  EXPECT_EQ(m.labelOf(SentencePieceModel::kEosId), "[EOS]");
  EXPECT_TRUE(m.startsWord(SentencePieceModel::kSosId));
}

TEST_F(SentencePieceModelTest, SavedAndLoadedItIsTheSameModel) {
  const testing::FixtureFolder folder;
  const SentencePieceModel m = learn();
  ASSERT_TRUE(m.save(folder.path("pieces_en.model")).ok());
  Expected<SentencePieceModel> read = SentencePieceModel::load(folder.path("pieces_en.model"));
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read->bytes(), m.bytes());
  EXPECT_EQ(read->encode(english_[3]), m.encode(english_[3]));
}

TEST_F(SentencePieceModelTest, ABadModelFileIsRefusedNamingIt) {
  const testing::FixtureFolder folder;
  const std::string model = learn().bytes();
  for (const std::string& bytes : {std::string(), std::string("not a model at all"),
                                   model.substr(0, model.size() / 2), std::string(1000, '\xFF')}) {
    const std::string path = folder.write("bad.model", bytes);
    Expected<SentencePieceModel> read = SentencePieceModel::load(path);
    ASSERT_FALSE(read.ok()) << bytes.size();
    EXPECT_NE(read.error().find(path), std::string::npos) << read.error();
  }
  EXPECT_NE(SentencePieceModel::load(folder.path("missing.model")).error().find("missing.model"),
            std::string::npos);
}

TEST_F(SentencePieceModelTest, ANormalisationTableNotOurOwnIsRefusedBeforeItCanCrash) {
  // SentencePiece reads a model's precompiled normalisation table without checking it: random
  // bytes in it, under a valid size, crashed the first encode (SIGSEGV in NormalizePrefix) of
  // infer, evaluate, resume and the window's Try it.
  const SentencePieceModel good = learn();
  const Expected<PieceModelTables> tables = readPieceModelTables(good.bytes());
  ASSERT_TRUE(tables.ok()) << tables.error();
  ASSERT_TRUE(tables->has_normalizer);
  ASSERT_GT(tables->normalizer.size(), 1000u) << "the trainer writes nmt_nfkc's table";
  const std::size_t at = good.bytes().find(tables->normalizer);
  ASSERT_NE(at, std::string::npos);
  std::uint64_t state = 99;
  for (int round = 0; round < 10; ++round) {
    std::string spoilt = good.bytes();
    for (std::size_t i = 0; i < tables->normalizer.size(); ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      spoilt[at + i] = static_cast<char>(state >> 56);
    }
    Expected<SentencePieceModel> read = SentencePieceModel::fromBytes(spoilt, "pieces_en.model");
    ASSERT_FALSE(read.ok()) << "round " << round;
    EXPECT_EQ(read.error().rfind("pieces_en.model: its normalisation table", 0), 0u)
        << read.error();
  }
  // One byte changed is a foreign table too; the model's own table loads and encodes.
  std::string one = good.bytes();
  one[at + tables->normalizer.size() / 2] ^= 0x40;
  EXPECT_FALSE(SentencePieceModel::fromBytes(one, "x.model").ok());
  Expected<SentencePieceModel> again = SentencePieceModel::fromBytes(good.bytes(), "x.model");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_FALSE(again->encode("the cat is on the table").empty());
}

TEST_F(SentencePieceModelTest, ADenormalisationTableIsRefused) {
  // No model of ours has one (decode would run it), so a model with one is not ours.
  std::string bytes = learn().bytes();
  const std::string table(300, '\x07');
  std::string spec = "\x12";  // NormalizerSpec.precompiled_charsmap, length-delimited
  spec += static_cast<char>(0xAC);
  spec += static_cast<char>(0x02);  // 300 as a varint
  spec += table;
  bytes += "\x2A";  // ModelProto.denormalizer_spec (field 5), length-delimited
  bytes += static_cast<char>(0xAF);
  bytes += static_cast<char>(0x02);  // 303
  bytes += spec;
  Expected<SentencePieceModel> read = SentencePieceModel::fromBytes(bytes, "d.model");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "d.model: it has a denormalisation table, which no piece model of this "
            "program has");
}

TEST_F(SentencePieceModelTest, APiecesBytesReachTheMessageWrittenOut) {
  // A piece holding ESC ] 0 ; … BEL, quoted raw by our message or SentencePiece's, retitled the
  // terminal running infer, and showed as garbage in the Log dock.
  const std::string good = learn().bytes();
  const std::string hostile = "\x1b]0;\x07";  // as long as "[UNK]"
  std::string first = good;
  first.replace(first.find("[UNK]"), 5, hostile);
  Expected<SentencePieceModel> read = SentencePieceModel::fromBytes(first, "p.model");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().find('\x1b'), std::string::npos) << read.error();
  EXPECT_NE(read.error().find("\\x1B]0;\\x07"), std::string::npos) << read.error();
  // Two pieces alike: SentencePiece's own error names the piece.
  std::string twice = first;
  twice.replace(twice.find("[PAD]"), 5, hostile);
  read = SentencePieceModel::fromBytes(twice, "p.model");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().rfind("p.model: not a SentencePiece model (", 0), 0u) << read.error();
  EXPECT_EQ(read.error().find('\x1b'), std::string::npos) << read.error();
  EXPECT_EQ(read.error().find('\x07'), std::string::npos) << read.error();
  // A byte that is not UTF-8 is written out too.
  std::string bad = good;
  bad.replace(bad.find("[UNK]"), 5, "[\xFF\xFEK]");
  read = SentencePieceModel::fromBytes(bad, "p.model");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("[\\xFF\\xFEK]"), std::string::npos) << read.error();
}

TEST_F(SentencePieceModelTest, APieceWithANulByteIsRefusedNotAnAbort) {
  // Found by the pieces fuzzer: one piece's letter turned into a NUL byte made SentencePiece's
  // trie builder throw through its loader, which ended the program (std::terminate).
  const std::string good = learn().bytes();
  // A one-letter piece: SentencePiece{piece (field 1) of length 1, score, …} after the specials.
  const std::size_t after = good.find("[EOS]");
  ASSERT_NE(after, std::string::npos);
  std::size_t at = good.find(std::string("\x0A\x01", 2), after);
  while (at != std::string::npos && !std::isalpha(static_cast<unsigned char>(good[at + 2]))) {
    at = good.find(std::string("\x0A\x01", 2), at + 1);
  }
  ASSERT_NE(at, std::string::npos);
  std::string spoilt = good;
  spoilt[at + 2] = '\0';
  Expected<SentencePieceModel> read = SentencePieceModel::fromBytes(spoilt, "n.model");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().rfind("n.model: piece ", 0), 0u) << read.error();
  EXPECT_NE(read.error().find(" is empty or holds a NUL byte, which no piece model has"),
            std::string::npos)
      << read.error();
}

TEST_F(SentencePieceModelTest, SpoiltModelBytesAreRefusedOrStillWork) {
  // A run folder is untrusted: a model file with bytes changed anywhere either fails to load,
  // naming the file, or loads into a model that encodes and decodes without crashing.
  const std::string model = learn().bytes();
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  int refused = 0;
  for (int round = 0; round < 300; ++round) {
    std::string spoilt = model;
    const int changes = 1 + static_cast<int>(next() % 8);
    for (int c = 0; c < changes; ++c) {
      spoilt[next() % spoilt.size()] = static_cast<char>(next() & 0xFF);
    }
    if (round % 10 == 0) spoilt.resize(next() % spoilt.size());
    Expected<SentencePieceModel> read = SentencePieceModel::fromBytes(spoilt, "spoilt.model");
    if (!read.ok()) {
      ++refused;
      EXPECT_EQ(read.error().rfind("spoilt.model", 0), 0u) << read.error();
      continue;
    }
    // What a spoilt model makes of a sentence is its own; it only must not crash.
    const Ids ids = read->encode("the black cat eats 42 zebras");
    (void)read->decode(ids);
    for (std::int64_t id : ids) (void)read->labelOf(id);
  }
  EXPECT_GT(refused, 0);
}

TEST_F(SentencePieceModelTest, WhatCannotBeLearnedSaysWhy) {
  Expected<SentencePieceModel> none = SentencePieceModel::train({}, {});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("no sentences"), std::string::npos);
  EXPECT_NE(SentencePieceModel::train(sentences(), {320, "wordpiece", 1}).error().find("wordpiece"),
            std::string::npos);
  EXPECT_NE(SentencePieceModel::train(sentences(), {100, "unigram", 1}).error().find("100"),
            std::string::npos);
  // More pieces than the sentences hold.
  Expected<SentencePieceModel> too_many = SentencePieceModel::train(sentences(), {50000, "bpe", 1});
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.error().find("50000"), std::string::npos) << too_many.error();
}

TEST_F(SentencePieceModelTest, TheTranslationTokenizerKeepsWordsOrPiecesInTheirOwnFile) {
  const testing::FixtureFolder folder;
  const TranslationTokenizer pieces(learn());
  const TranslationTokenizer words(TranslationWordTokenizer::fit(sentences(), 2));
  EXPECT_TRUE(pieces.usesPieces());
  EXPECT_FALSE(words.usesPieces());
  EXPECT_EQ(TranslationTokenizer::fileName("en", true), "pieces_en.model");
  EXPECT_EQ(TranslationTokenizer::fileName("it", false), "tokenizer_it.json");
  ASSERT_TRUE(pieces.save(folder.path(), "en").ok());
  ASSERT_TRUE(words.save(folder.path(), "it").ok());
  Expected<TranslationTokenizer> p = TranslationTokenizer::load(folder.path(), "en", true);
  Expected<TranslationTokenizer> w = TranslationTokenizer::load(folder.path(), "it", false);
  ASSERT_TRUE(p.ok()) << p.error();
  ASSERT_TRUE(w.ok()) << w.error();
  EXPECT_EQ(p->encode(english_[1]), pieces.encode(english_[1]));
  EXPECT_EQ(w->encode(english_[1]), words.encode(english_[1]));
  // A words run has no pieces file: asked for pieces, the error names the file it looked for.
  EXPECT_NE(TranslationTokenizer::load(folder.path(), "it", true).error().find("pieces_it.model"),
            std::string::npos);
  // An unseen word: [UNK] with words, pieces without.
  const std::vector<std::string_view> unseen = {"the zebra quietly sleeps"};
  EXPECT_GT(words.unknownShare(unseen), 0.0);
  EXPECT_EQ(pieces.unknownShare(unseen), 0.0);
  EXPECT_EQ(pieces.detokenize(pieces.encode("the zebra quietly sleeps")),
            "the zebra quietly sleeps");
}

}  // namespace
}  // namespace ascope
