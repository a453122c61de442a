#pragma once
// What the translation task tokenizes one language with: whole words (TranslationWordTokenizer,
// every run folder made before pieces) or SentencePiece pieces. Ids 0–3 are [UNK], [PAD], [SOS],
// [EOS] either way, so the model and the decoding do not care which.
// In a run folder: words in tokenizer_<language>.json, pieces in pieces_<language>.model.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/text/pieces/sentence_piece_model.h"
#include "engine/text/words/translation_word_tokenizer.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class TranslationTokenizer {
 public:
  /// Implicit: a word tokenizer is a translation tokenizer (what older code and tests build).
  TranslationTokenizer(TranslationWordTokenizer words);  // NOLINT(google-explicit-constructor)
  explicit TranslationTokenizer(SentencePieceModel pieces);

  bool usesPieces() const { return std::holds_alternative<SentencePieceModel>(tokenizer_); }
  /// "words" or "pieces", for messages.
  const char* kind() const { return usesPieces() ? "pieces" : "words"; }

  /// Ids of `text`, no special tokens added.
  std::vector<std::int64_t> encode(std::string_view text) const;
  /// How many ids encode() gives.
  std::size_t length(std::string_view text) const;
  /// What a view shows for `id`: the word, or the piece with its word start unmarked and a
  /// continuation marked "##" (SentencePieceModel::labelOf).
  std::string labelOf(std::int64_t id) const;
  /// True when `id` begins a word (every word does; a piece only when it follows a space).
  bool startsWord(std::int64_t id) const;
  /// The text of `ids`, special and unknown ids left out, spaced as the training text is.
  std::string detokenize(const std::vector<std::int64_t>& ids) const;
  std::size_t vocabSize() const;
  /// The share of [UNK] among the ids of `sentences` (0 when they have none).
  double unknownShare(const std::vector<std::string_view>& sentences) const;

  /// The file of `language`'s tokenizer in a run folder, for words or pieces.
  static std::string fileName(const std::string& language, bool pieces);
  /// Written atomically into `run_dir`, named by fileName().
  Status save(const std::string& run_dir, const std::string& language) const;
  /// The pieces' SHA-256 (SentencePieceModel::sha256); empty for words.
  std::string fingerprint() const;

  /// What a run folder's config.json recorded of a language's pieces when the run was trained.
  struct Recorded {
    std::string sha256;  ///< empty: a run made before pieces were fingerprinted
  };
  /// Reads `language`'s tokenizer of the kind the run uses; errors name the file. Pieces must be
  /// those `recorded` names (another run's, the other language's or a changed file is refused);
  /// a run that recorded none loads them with a warning in `warnings` (when given).
  static Expected<TranslationTokenizer> load(const std::string& run_dir,
                                             const std::string& language, bool pieces,
                                             const Recorded& recorded = {},
                                             std::vector<std::string>* warnings = nullptr);

 private:
  std::variant<TranslationWordTokenizer, SentencePieceModel> tokenizer_;
};

}  // namespace ascope
