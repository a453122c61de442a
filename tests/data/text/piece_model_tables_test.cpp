// A SentencePiece model's normalisation tables read from its protobuf bytes: found where they are,
// and every malformed message refused with the offset where it stops making sense.
#include "engine/text/pieces/piece_model_tables.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace ascope {
namespace {

/// A length-delimited field (lengths under 128).
std::string field(int number, const std::string& bytes) {
  return std::string(1, static_cast<char>(number << 3 | 2)) +
         std::string(1, static_cast<char>(bytes.size())) + bytes;
}

TEST(PieceModelTables, FindsBothTablesAndTheRuleBesideOtherFields) {
  const std::string normalizer = field(1, "nmt_nfkc") + field(2, "TABLE") + "\x18\x01";  // bool 3
  const std::string model = field(1, field(1, "piece")) + "\x10\x05" /* varint */ +
                            "\x25\x01\x02\x03\x04" /* fixed32 */ + field(3, normalizer) +
                            field(5, field(2, "DE")) +
                            "\x31\x01\x02\x03\x04\x05\x06\x07\x08" /* fixed64 6 */;
  Expected<PieceModelTables> tables = readPieceModelTables(model);
  ASSERT_TRUE(tables.ok()) << tables.error();
  EXPECT_TRUE(tables->has_normalizer);
  EXPECT_EQ(tables->normalizer_rule, "nmt_nfkc");
  EXPECT_EQ(tables->normalizer, "TABLE");
  EXPECT_TRUE(tables->has_denormalizer);
  EXPECT_EQ(tables->denormalizer, "DE");
}

TEST(PieceModelTables, AModelWithoutTablesHasNone) {
  Expected<PieceModelTables> tables = readPieceModelTables(field(1, field(1, "piece")));
  ASSERT_TRUE(tables.ok()) << tables.error();
  EXPECT_FALSE(tables->has_normalizer);
  EXPECT_TRUE(tables->normalizer.empty());
  EXPECT_TRUE(readPieceModelTables("").ok());
}

TEST(PieceModelTables, CountsThePiecesAndFindsTheFirstATrieCannotHold) {
  // SentencePiece's trie takes pieces as C strings: an empty one or one with a NUL byte threw
  // through its loader and aborted the program.
  const std::string good = field(1, field(1, "a") + std::string("\x15\x00\x00\x00\x00", 5));
  Expected<PieceModelTables> plain = readPieceModelTables(good + good);
  ASSERT_TRUE(plain.ok()) << plain.error();
  EXPECT_EQ(plain->pieces, 2u);
  EXPECT_FALSE(plain->unusable_piece.has_value());
  for (const std::string& bad : {field(1, field(1, std::string(1, '\0'))), field(1, field(1, "")),
                                 field(1, "\x18\x01"), field(1, field(1, "ok") + field(1, ""))}) {
    Expected<PieceModelTables> tables = readPieceModelTables(good + good + bad + bad);
    ASSERT_TRUE(tables.ok()) << tables.error();
    EXPECT_EQ(tables->pieces, 4u);
    EXPECT_EQ(tables->unusable_piece, std::optional<std::size_t>(2));
  }
  EXPECT_EQ(readPieceModelTables(good + "\x08\x01").error(),
            "the piece at byte 10 is not a message");
  EXPECT_EQ(readPieceModelTables(field(1,
                                       "\x0A\x05"
                                       "ab"))
                .error(),
            "field 1 at byte 2 runs past the end");
}

TEST(PieceModelTables, MalformedMessagesNameWhereTheyBreak) {
  const auto error = [](const std::string& bytes) {
    Expected<PieceModelTables> tables = readPieceModelTables(bytes);
    return tables.ok() ? std::string("(read)") : tables.error();
  };
  EXPECT_EQ(error(field(2, "ok") + "\x1A\x10"
                                   "abc"),
            "field 3 at byte 4 runs past the end");
  EXPECT_EQ(error("\x08"), "field 1 at byte 0 runs past the end");
  EXPECT_EQ(error("\x80"), "a field key at byte 0 is cut off");
  EXPECT_EQ(error(std::string("\x0A\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 12)),
            "field 1 at byte 0 runs past the end");
  EXPECT_EQ(error("\x0B"), "field 1 at byte 0 has wire type 3, which no SentencePiece model uses");
  EXPECT_EQ(error(std::string("\x00\x00", 2)), "field 0 at byte 0");
  EXPECT_EQ(error("\x18\x01"), "the normaliser at byte 0 is not a message");
  EXPECT_EQ(error(field(3, "") + field(3, "")), "a second normaliser at byte 2");
  // Inside the normaliser, offsets are the file's.
  EXPECT_EQ(error(field(2, "ab") + field(3, "\x12\x09xy")), "field 2 at byte 6 runs past the end");
  EXPECT_EQ(error("\x0D\x01\x02"), "field 1 at byte 0 runs past the end");
}

}  // namespace
}  // namespace ascope
