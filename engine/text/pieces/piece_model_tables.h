#pragma once
// What SentencePiece trusts blindly in a model file, read from its protobuf bytes without
// SentencePiece: ModelProto's normalizer_spec (field 3) and denormalizer_spec (field 5), each a
// NormalizerSpec whose precompiled_charsmap (field 2) is used unchecked, and the pieces (field 1,
// each a message whose field 1 is the piece's text). A table of random bytes under a valid size
// crashes its normaliser on the first encode, and a piece that is empty or holds a NUL byte (its
// trie takes keys as C strings) aborts the program while the model loads, so these are checked
// before SentencePiece ever sees the file (SentencePieceModel::fromBytes). Reads the protobuf wire
// format (varints, fixed 32/64-bit, length-delimited) with every length checked against what is
// left; groups (deprecated wire types 3 and 4) are refused.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct PieceModelTables {
  bool has_normalizer = false;    ///< normalizer_spec present
  std::string normalizer_rule;    ///< normalizer_spec.name ("nmt_nfkc", "identity", …)
  std::string normalizer;         ///< normalizer_spec.precompiled_charsmap; empty: none
  bool has_denormalizer = false;  ///< denormalizer_spec present
  std::string denormalizer;       ///< denormalizer_spec.precompiled_charsmap; empty: none
  std::size_t pieces = 0;         ///< how many pieces the model lists
  /// The id of the first piece that is empty or holds a NUL byte.
  std::optional<std::size_t> unusable_piece;
};

/// The tables of the serialized ModelProto `bytes`; an error says what is malformed and where
/// (the byte offset), e.g. "field 3 at byte 1234 runs past the end".
Expected<PieceModelTables> readPieceModelTables(std::string_view bytes);

}  // namespace ascope
