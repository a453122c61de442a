#pragma once
// Subword pieces (SentencePiece, Debian's libsentencepiece): a model trained on the run's own
// training sentences when the run starts, kept in the run folder as SentencePiece's own binary
// model file and read back by everything that opens the run. Ids 0–3 are the translation
// tokenizer's special tokens ([UNK], [PAD], [SOS], [EOS]); bytes the pieces do not cover fall
// back to byte pieces, so nothing becomes [UNK].
// A model file is untrusted input: its size is bounded, it must parse, and its first four pieces
// must be those special tokens, else load() names the file and what is wrong.
// SentencePiece runs inside its own library (library/sentence_piece_api.h); built without it
// (ATTENTIONSCOPE_WITH_SENTENCEPIECE off) or without that library found, train() and load() answer
// an error saying so.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {
struct SentencePieceApi;
}

namespace ascope {

/// How pieces are learned.
struct PieceTraining {
  int vocab_size = 8000;              ///< pieces, special and byte pieces included
  std::string algorithm = "unigram";  ///< "unigram" or "bpe"
  std::uint64_t seed = 1;             ///< the same sentences and seed give the same pieces
};

class SentencePieceModel {
 public:
  static constexpr std::int64_t kUnkId = 0;
  static constexpr std::int64_t kPadId = 1;
  static constexpr std::int64_t kSosId = 2;
  static constexpr std::int64_t kEosId = 3;
  /// Marks, in a piece's label, a piece that continues a word (as BERT's WordPiece writes it).
  static constexpr const char* kContinuationMark = "##";
  /// The label of a word start with no letters of its own (U+2423, a visible space): the word
  /// is spelt by the byte pieces after it.
  static constexpr const char* kLoneWordStart = "\xE2\x90\xA3";
  /// A model file larger than this is not a piece model of ours.
  static constexpr std::uint64_t kMaxModelBytes = std::uint64_t{64} << 20;

  /// True when this build can train and read piece models.
  static bool available();

  /// Learns pieces from `sentences` (one language). Errors: no sentences, a vocabulary the
  /// sentences cannot fill, an unknown algorithm.
  static Expected<SentencePieceModel> train(const std::vector<std::string_view>& sentences,
                                            const PieceTraining& training);
  /// A model from its serialized bytes; `name` (the file) starts every error.
  static Expected<SentencePieceModel> fromBytes(const std::string& bytes, const std::string& name);
  /// A run folder's pieces file: a symbolic link in its place is refused, not followed.
  static Expected<SentencePieceModel> load(const std::string& path);
  /// Written atomically (temp file + rename).
  Status save(const std::string& path) const;

  /// Piece ids of `text`, no special tokens added.
  std::vector<std::int64_t> encode(std::string_view text) const;
  /// The text of `ids`, special ids left out: pieces joined, word starts become spaces, byte
  /// pieces become their bytes.
  std::string decode(const std::vector<std::int64_t>& ids) const;
  /// The piece as stored ("▁gatto", "ino", "<0xC3>"); "[UNK]" for ids out of range.
  const std::string& pieceOf(std::int64_t id) const;
  /// The piece as a reader sees it: a word's first piece without the "▁" ("gatto"), a
  /// continuation marked ("##ino"), an ASCII byte piece as its character ("##z"), special tokens
  /// as they are.
  std::string labelOf(std::int64_t id) const;
  /// True for a piece that starts a word (and for the special tokens).
  bool startsWord(std::int64_t id) const;
  std::size_t vocabSize() const;
  const std::string& bytes() const { return *bytes_; }
  /// The SHA-256 of bytes(), 64 lowercase hex digits: what a run folder records of its pieces.
  std::string sha256() const;

 private:
  SentencePieceModel(const SentencePieceApi* api, std::shared_ptr<const void> processor,
                     std::shared_ptr<const std::string> bytes, std::size_t size);

  const SentencePieceApi* api_ = nullptr;
  // Shared: the processor is immutable once loaded and its encode/decode are const.
  std::shared_ptr<const void> processor_;
  std::shared_ptr<const std::string> bytes_;
  std::size_t size_ = 0;
};

}  // namespace ascope
