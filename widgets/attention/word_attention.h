#pragma once

#include "widgets/attention/attention_plot_data.h"

#include <QString>

#include <vector>

namespace ascope {

/// Attention between words instead of subword pieces: tokens whose label starts with "##"
/// (SentencePiece pieces as the engine labels them, and BERT's WordPiece) continue the word
/// before them. A word's attention to another is the sum of its weights over the other's key
/// pieces (how much it looks at the word as a whole), averaged over its own query pieces (so a
/// row still sums to 1). Masked cells count as 0; a word pair whose every cell is masked stays
/// masked (NaN).
class WordAttention {
 public:
  /// What the words view shows, for a tooltip and an export's sidecar.
  static QString explanation();

  /// True when some matrix of `data` has a continued piece among its labels.
  static bool hasPieces(const AttentionPlotData& data);
  /// The first token of each word of `labels`: word w spans starts[w] to starts[w + 1] - 1.
  static std::vector<int> wordStarts(const QStringList& labels);
  /// The words of `labels`, their pieces joined ("gatt", "##ino" → "gattino"; "␣", "##z",
  /// "##ebra" → "zebra").
  static QStringList words(const QStringList& labels, const std::vector<int>& starts);
  /// One head in words.
  static LabeledMatrix ofMatrix(const LabeledMatrix& pieces);
  /// Every matrix of `data` in words; a decoder row's prediction is that of its word's last
  /// piece. The decoding steps stay per piece.
  static AttentionPlotData of(const AttentionPlotData& data);
};

}  // namespace ascope
