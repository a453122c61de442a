#pragma once
// The translator's hyperparameters (plain C++, no LibTorch); the translation task stores them in
// config.json under "translator".
// Defaults are the reference configuration of the seed documents.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Encoder-decoder translator (reference: d_model 512, 6+6 layers, 8 heads, d_ff 2048, dropout
/// 0.1, seq_len 350, pre-norm, sinusoidal PE).
struct TranslatorConfig {
  /// Its key in config.json (TrainingConfig::task_settings), the same since the first run folders.
  static constexpr const char* kConfigKey = "translator";
  /// The widest beam anything asks for (the CLI's --beam, the window's box, config.json).
  static constexpr int64_t kMaxBeamWidth = 16;

  int64_t source_vocab_size = 16000;
  int64_t target_vocab_size = 16000;
  int64_t seq_len = 350;
  int64_t d_model = 512;
  int64_t encoder_layers = 6;
  int64_t decoder_layers = 6;
  int64_t heads = 8;
  int64_t d_ff = 2048;
  double dropout = 0.1;
  int64_t pad_id = 1;  ///< [PAD] of the translation tokenizer
  std::string activation = "relu";
  bool norm_first = true;
  /// Pieces per language learned with SentencePiece when the run starts (special and byte pieces
  /// included); 0: whole words, as every run folder made before pieces (which lack the key).
  int64_t piece_vocab_size = 0;
  std::string piece_algorithm = "unigram";  ///< "unigram" or "bpe"
  /// How validation, test, `evaluate` and `infer` decode: 1 greedy, K > 1 a beam of K hypotheses
  /// (the timeline's probes are always greedy: cheap). `--beam K` asks for K without retraining.
  int64_t beam_width = 1;
  /// The beam's length normalisation, GNMT's alpha (0: none).
  double length_alpha = 0.6;
  /// The SHA-256 of each language's pieces file, recorded when the run learned them and checked on
  /// every load (a swapped or foreign file is refused); empty for words and for runs made before.
  std::string source_pieces_sha256;
  std::string target_pieces_sha256;

  Status validate() const;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TranslatorConfig, source_vocab_size,
                                                target_vocab_size, seq_len, d_model, encoder_layers,
                                                decoder_layers, heads, d_ff, dropout, pad_id,
                                                activation, norm_first, piece_vocab_size,
                                                piece_algorithm, beam_width, length_alpha,
                                                source_pieces_sha256, target_pieces_sha256)

}  // namespace ascope
