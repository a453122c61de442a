#pragma once
// Levenshtein distance, and the spacing texts are compared with: what the translation task's CER
// and WER and any task scored by edits count.
#include <algorithm>
#include <string>
#include <vector>

namespace ascope {

/// `text` with its whitespace runs made single spaces and its ends trimmed.
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
