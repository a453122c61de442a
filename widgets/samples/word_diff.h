#pragma once

#include <QString>

#include <vector>

namespace ascope {

struct DiffWord {
  QString text;
  bool matched = false;  ///< part of the longest common word sequence of both sentences
};

/// Word-level comparison of a reference translation and the model's output, by longest common
/// subsequence (case-insensitive, punctuation kept): unmatched reference words are missing from the
/// output, unmatched output words are wrong or extra.
struct WordDiff {
  std::vector<DiffWord> reference;
  std::vector<DiffWord> hypothesis;

  static WordDiff compare(const QString& reference, const QString& hypothesis);
  int matchedCount() const;
};

}  // namespace ascope
