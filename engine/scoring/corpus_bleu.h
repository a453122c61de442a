#pragma once
// Corpus BLEU as sacreBLEU 2.x computes it (sacrebleu.metrics.bleu.BLEU): each raw sentence
// tokenized by 13a (or not at all), clipped n-gram matches up to 4-grams summed over the corpus
// (against the most generous of several references), the reference length closest to each
// hypothesis, the brevity penalty, and the smoothing of zero counts ("exp" by default, as WMT's
// mteval-v13a). tests/data/scoring/sacrebleu_test.cpp checks it against sacreBLEU's published test
// values.
#include <array>
#include <string>
#include <vector>

namespace ascope {

struct BleuOptions {
  enum class Smoothing { kNone, kFloor, kAddK, kExp };
  Smoothing smoothing = Smoothing::kExp;
  /// floor: the count a zero match becomes (default 0.1); add-k: k (default 1); < 0 = default.
  double smooth_value = -1;
  /// Average only over the n-gram orders the hypotheses reach (sentence-level BLEU).
  bool effective_order = false;
  /// "13a" (sacreBLEU's default) or "none" (the text is already split into words by spaces).
  bool tokenize_13a = true;
};

struct BleuScore {
  static constexpr int kMaxOrder = 4;
  double score = 0;                            ///< 0..100
  std::array<double, kMaxOrder> counts{};      ///< clipped matches of 1..4-grams
  std::array<double, kMaxOrder> totals{};      ///< hypothesis 1..4-grams
  std::array<double, kMaxOrder> precisions{};  ///< percent
  double brevity_penalty = 0;
  long long hypothesis_length = 0;  ///< words of every hypothesis
  long long reference_length = 0;   ///< words of the closest reference of each
};

/// BLEU of `hypotheses` against `references`: one stream per reference, each as long as
/// `hypotheses` (references[r][i] is the r-th reference of hypothesis i). Streams that are
/// shorter are read as missing references of the sentences past their end.
BleuScore corpusBleu(const std::vector<std::string>& hypotheses,
                     const std::vector<std::vector<std::string>>& references,
                     const BleuOptions& options = {});

/// The score from the sufficient statistics (sacrebleu's BLEU.compute_bleu).
BleuScore bleuFromStatistics(std::array<double, BleuScore::kMaxOrder> counts,
                             std::array<double, BleuScore::kMaxOrder> totals,
                             long long hypothesis_length, long long reference_length,
                             const BleuOptions& options);

}  // namespace ascope
