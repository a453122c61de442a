#pragma once
// chrF as sacreBLEU 2.x computes it (sacrebleu.metrics.chrf.CHRF): character n-grams up to 6
// (whitespace removed unless kept), optionally word n-grams (chrF++), matches summed over the
// corpus, F-beta of the precision and recall averaged over the orders. Per sentence the reference
// with the best F-score counts. 0..100.
#include <string>
#include <vector>

namespace ascope {

struct ChrfOptions {
  int char_order = 6;
  int word_order = 0;  ///< 2 = chrF++
  double beta = 2;
  bool keep_whitespace = false;
  /// chrF++.py's epsilon smoothing; false (sacreBLEU's default) averages over the orders where
  /// both sides have n-grams.
  bool eps_smoothing = false;
};

/// `references` as corpusBleu takes them: one stream per reference.
double corpusChrf(const std::vector<std::string>& hypotheses,
                  const std::vector<std::vector<std::string>>& references,
                  const ChrfOptions& options = {});

}  // namespace ascope
