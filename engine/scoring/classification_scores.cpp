#include "engine/scoring/classification_scores.h"

#include <algorithm>
#include <numeric>

namespace ascope {

ClassificationScores scoreClasses(const std::vector<ScoredSample>& scored,
                                  const std::vector<std::string>& classes) {
  int count = static_cast<int>(classes.size());
  for (const ScoredSample& s : scored)
    count = std::max({count, s.true_class + 1, s.predicted_class + 1});
  ClassificationScores out;
  out.confusion.assign(static_cast<std::size_t>(count),
                       std::vector<std::int64_t>(static_cast<std::size_t>(count), 0));
  std::int64_t right = 0, counted = 0;
  for (const ScoredSample& s : scored) {
    if (s.true_class < 0 || s.predicted_class < 0) continue;
    ++out.confusion[static_cast<std::size_t>(s.true_class)]
                   [static_cast<std::size_t>(s.predicted_class)];
    right += s.true_class == s.predicted_class;
    ++counted;
  }
  out.accuracy = counted > 0 ? static_cast<double>(right) / static_cast<double>(counted) : 0.0;
  double f1_sum = 0;
  int present = 0;
  for (int c = 0; c < count; ++c) {
    const auto k = static_cast<std::size_t>(c);
    ClassScores cs;
    cs.name = k < classes.size() ? classes[k] : std::to_string(c);
    for (int o = 0; o < count; ++o) {
      cs.support += out.confusion[k][static_cast<std::size_t>(o)];
      cs.predicted += out.confusion[static_cast<std::size_t>(o)][k];
    }
    const auto hits = static_cast<double>(out.confusion[k][k]);
    cs.precision = cs.predicted > 0 ? hits / static_cast<double>(cs.predicted) : 0.0;
    cs.recall = cs.support > 0 ? hits / static_cast<double>(cs.support) : 0.0;
    cs.f1 = cs.precision + cs.recall > 0 ? 2 * cs.precision * cs.recall / (cs.precision + cs.recall)
                                         : 0.0;
    if (cs.support > 0 || cs.predicted > 0) {
      f1_sum += cs.f1;
      ++present;
    }
    out.per_class.push_back(std::move(cs));
  }
  out.macro_f1 = present > 0 ? f1_sum / present : 0.0;
  return out;
}

std::vector<std::size_t> worstErrors(const std::vector<ScoredSample>& scored, std::size_t n) {
  std::vector<std::size_t> wrong;
  for (std::size_t i = 0; i < scored.size(); ++i) {
    if (!scored[i].prediction.correct) wrong.push_back(i);
  }
  std::stable_sort(wrong.begin(), wrong.end(), [&scored](std::size_t a, std::size_t b) {
    return scored[a].loss > scored[b].loss;
  });
  if (wrong.size() > n) wrong.resize(n);
  return wrong;
}

}  // namespace ascope
