#pragma once
// What a classifier's answers over a split add up to: the confusion matrix, each class's
// precision, recall and F1, and their unweighted mean (macro F1) — and which answers were the
// most confidently wrong.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/vocabulary/evaluation_report.h"

namespace ascope {

struct ClassificationScores {
  std::vector<std::vector<std::int64_t>> confusion;  ///< [true][predicted] counts
  std::vector<ClassScores> per_class;
  double macro_f1 = 0;  ///< over the classes that occur (as truth or answer)
  double accuracy = 0;
};

/// Over `scored` (true_class, predicted_class); classes past `classes` are named by their index.
/// A class never predicted has precision 0, one never true recall 0; F1 is 0 when both are.
ClassificationScores scoreClasses(const std::vector<ScoredSample>& scored,
                                  const std::vector<std::string>& classes);

/// The indices into `scored` of at most `n` wrong answers, highest loss first (ties: lower index).
std::vector<std::size_t> worstErrors(const std::vector<ScoredSample>& scored, std::size_t n);

}  // namespace ascope
