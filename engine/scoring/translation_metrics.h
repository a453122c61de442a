#pragma once
// Corpus-level translation scores, the ones the reference notebook reports with torchmetrics.
#include <algorithm>
#include <string>
#include <vector>

namespace ascope {

struct TranslationScores {
  double bleu = 0;         ///< corpus BLEU-4 with brevity penalty, 0..100
  double cer = 0;          ///< character edit distance / reference characters
  double wer = 0;          ///< word edit distance / reference words
  double exact_match = 0;  ///< share of hypotheses equal to their reference
};

/// Whitespace-tokenised scores of `hypotheses` against one reference each. Empty input gives zeros.
TranslationScores scoreTranslations(const std::vector<std::string>& hypotheses,
                                    const std::vector<std::string>& references);

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
