#include "engine/scoring/temperature_scaling.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ascope {

std::vector<double> temperedProbabilities(const std::vector<float>& logits, double temperature) {
  std::vector<double> p(logits.size());
  if (logits.empty()) return p;
  // Shifted by the largest logit so that no exponential overflows.
  const double top = *std::max_element(logits.begin(), logits.end());
  double sum = 0;
  for (std::size_t c = 0; c < logits.size(); ++c) {
    p[c] = std::exp((logits[c] - top) / temperature);
    sum += p[c];
  }
  for (double& v : p) v /= sum;
  return p;
}

double temperedLoss(const std::vector<ScoredSample>& scored, double temperature) {
  double sum = 0;
  std::int64_t n = 0;
  for (const ScoredSample& s : scored) {
    if (s.logits.empty() || s.true_class < 0 || s.true_class >= static_cast<int>(s.logits.size())) {
      continue;
    }
    // log-softmax directly: the probability of a confidently wrong answer underflows to 0.
    const double top = *std::max_element(s.logits.begin(), s.logits.end());
    double sum_exp = 0;
    for (const float z : s.logits) sum_exp += std::exp((z - top) / temperature);
    sum +=
        std::log(sum_exp) - (s.logits[static_cast<std::size_t>(s.true_class)] - top) / temperature;
    ++n;
  }
  return n > 0 ? sum / static_cast<double>(n) : 0.0;
}

namespace {

/// The probability of the class `s` answered at `temperature`, or its own without logits.
double answerProbability(const ScoredSample& s, double temperature) {
  const auto answered = static_cast<std::size_t>(s.predicted_class);
  if (s.logits.empty() || s.predicted_class < 0 || answered >= s.logits.size()) {
    return s.prediction.probability;
  }
  return temperedProbabilities(s.logits, temperature)[answered];
}

}  // namespace

std::vector<ConfidenceOutcome> confidenceOutcomes(const std::vector<ScoredSample>& scored,
                                                  double temperature) {
  std::vector<ConfidenceOutcome> out;
  out.reserve(scored.size());
  for (const ScoredSample& s : scored) {
    out.push_back({answerProbability(s, temperature), s.prediction.correct});
  }
  return out;
}

void applyTemperature(std::vector<ScoredSample>& scored, double temperature) {
  for (ScoredSample& s : scored) s.prediction.probability = answerProbability(s, temperature);
}

std::vector<std::pair<std::string, double>> temperedRanking(
    const std::vector<std::pair<std::string, double>>& ranking, double temperature) {
  if (temperature == 1.0 || ranking.empty()) return ranking;
  // p^(1/T) normalised is softmax(z / T): log p = z − logsumexp(z), and the constant cancels.
  std::vector<std::pair<std::string, double>> out = ranking;
  const double lowest = std::log(std::numeric_limits<double>::min());
  double top = -std::numeric_limits<double>::infinity();
  for (auto& [name, p] : out) {
    p = (p > 0 ? std::log(p) : lowest) / temperature;
    top = std::max(top, p);
  }
  double sum = 0;
  for (auto& entry : out) {
    entry.second = std::exp(entry.second - top);
    sum += entry.second;
  }
  for (auto& entry : out) entry.second /= sum;
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

}  // namespace ascope
