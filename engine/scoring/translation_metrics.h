#pragma once
// The translation scores of a corpus of hypotheses, each against its one raw reference sentence:
// BLEU and chrF exactly as sacreBLEU computes them (engine/scoring/corpus_bleu.h, corpus_chrf.h),
// so that the figure compares with published ones, and the edit rates and exact matches a lecture
// explains with.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/scoring/corpus_bleu.h"

namespace ascope {

struct TranslationScores {
  double bleu = 0;         ///< sacreBLEU corpus BLEU (13a, exp smoothing), 0..100
  BleuScore bleu_details;  ///< its precisions, brevity penalty and lengths
  double chrf = 0;         ///< sacreBLEU chrF2, 0..100
  double cer = 0;          ///< character edit distance / reference characters (code points)
  double wer = 0;          ///< word edit distance / reference words (13a words)
  double exact_match = 0;  ///< share of hypotheses equal to their reference (spacing aside)
};

/// Scores of `hypotheses` (detokenized text) against `references` (the raw reference text, never
/// rebuilt from token ids), one each. Empty input gives zeros.
TranslationScores scoreTranslations(const std::vector<std::string>& hypotheses,
                                    const std::vector<std::string>& references);

/// `text` with its whitespace runs made single spaces and its ends trimmed: how exact match
/// compares sentences.
std::string normalizedSpacing(const std::string& text);

/// Levenshtein distance between two sequences of comparable items.
template <typename Sequence>
std::size_t editDistance(const Sequence& a, const Sequence& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace ascope
