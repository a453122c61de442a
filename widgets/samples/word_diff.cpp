#include "widgets/samples/word_diff.h"

#include <QRegularExpression>

namespace ascope {
namespace {

std::vector<DiffWord> split(const QString& text) {
  static const QRegularExpression spaces(QStringLiteral("\\s+"));
  std::vector<DiffWord> words;
  for (const QString& w : text.split(spaces, Qt::SkipEmptyParts)) words.push_back({w, false});
  return words;
}

}  // namespace

WordDiff WordDiff::compare(const QString& reference, const QString& hypothesis) {
  WordDiff diff{split(reference), split(hypothesis)};
  const size_t n = diff.reference.size();
  const size_t m = diff.hypothesis.size();
  // Sentences are short; an O(n*m) table is fine. Longer inputs are left unmatched rather than
  // allocating megabytes for a display.
  if (n == 0 || m == 0 || n * m > 250000) return diff;
  auto same = [&](size_t i, size_t j) {
    return diff.reference[i].text.compare(diff.hypothesis[j].text, Qt::CaseInsensitive) == 0;
  };
  std::vector<int> table((n + 1) * (m + 1), 0);  // LCS length of suffixes
  auto at = [&](size_t i, size_t j) -> int& { return table[i * (m + 1) + j]; };
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      at(i, j) = same(i, j) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  for (size_t i = 0, j = 0; i < n && j < m;) {
    if (same(i, j)) {
      diff.reference[i++].matched = true;
      diff.hypothesis[j++].matched = true;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
  return diff;
}

int WordDiff::matchedCount() const {
  int count = 0;
  for (const DiffWord& w : hypothesis) count += w.matched ? 1 : 0;
  return count;
}

}  // namespace ascope
