#include "engine/models/translator_config.h"

#include <algorithm>

#include "engine/models/model_config_bounds.h"
#include "engine/vocabulary/config_checks.h"

namespace ascope {

Status TranslatorConfig::validate() const {
  using namespace config_checks;
  using namespace model_config_bounds;
  Status s = firstError(
      {inRange("source_vocab_size", source_vocab_size, 4, kMaxVocabulary),
       inRange("target_vocab_size", target_vocab_size, 4, kMaxVocabulary),
       inRange("seq_len", seq_len, 2, kMaxSequence), inRange("d_model", d_model, 1, kMaxWidth),
       inRange("encoder_layers", encoder_layers, 1, kMaxLayers),
       inRange("decoder_layers", decoder_layers, 1, kMaxLayers),
       inRange("heads", heads, 1, kMaxHeads), inRange("d_ff", d_ff, 1, kMaxFeedForward),
       probability("dropout", dropout), oneOf("activation", activation, "relu", "gelu"),
       oneOf("piece_algorithm", piece_algorithm, "unigram", "bpe"),
       inRange("beam_width", beam_width, 1, kMaxBeamWidth)});
  if (!s.ok()) return s;
  if (!(length_alpha >= 0 && length_alpha <= 5)) {
    return Error{"length_alpha must be in [0, 5], got " + std::to_string(length_alpha)};
  }
  if (!s.ok()) return s;
  // 4 special pieces and 256 byte pieces come first: fewer leaves the text almost no pieces.
  if (piece_vocab_size != 0 && (piece_vocab_size < 300 || piece_vocab_size > kMaxVocabulary)) {
    return Error{"piece_vocab_size must be 0 (whole words) or 300 to " +
                 std::to_string(kMaxVocabulary) + ", got " + std::to_string(piece_vocab_size)};
  }
  for (const auto& [name, sha256] : {std::pair{"source_pieces_sha256", &source_pieces_sha256},
                                     std::pair{"target_pieces_sha256", &target_pieces_sha256}}) {
    const bool hex =
        sha256->size() == 64 && std::all_of(sha256->begin(), sha256->end(), [](char c) {
          return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        });
    if (!sha256->empty() && !hex) {
      return Error{std::string(name) + " must be 64 lowercase hex digits (a SHA-256) or empty"};
    }
  }
  if (pad_id < 0 || pad_id >= std::min(source_vocab_size, target_vocab_size)) {
    return Error{"pad_id must be a token of both vocabularies, in [0, " +
                 std::to_string(std::min(source_vocab_size, target_vocab_size)) + "), got " +
                 std::to_string(pad_id)};
  }
  return divisible("d_model", d_model, "heads", heads);
}

}  // namespace ascope
