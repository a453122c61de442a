#include "engine/scoring/calibration_error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ascope {

Expected<CalibrationError> calibrationError(const std::vector<ConfidenceOutcome>& outcomes,
                                            int bins) {
  if (bins < 1) return Error{"a reliability diagram needs at least one bin"};
  if (outcomes.empty()) return Error{"no answers to measure the calibration of"};
  std::vector<double> confidence_sum(static_cast<std::size_t>(bins), 0.0);
  std::vector<std::int64_t> right(static_cast<std::size_t>(bins), 0);
  CalibrationError out;
  out.bins.resize(static_cast<std::size_t>(bins));
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const double c = outcomes[i].confidence;
    // Written so that NaN fails too.
    if (!(c >= 0.0 && c <= 1.0)) {
      return Error{"answer " + std::to_string(i) + " has confidence " + std::to_string(c) +
                   ", not a probability"};
    }
    const auto b = static_cast<std::size_t>(std::min(static_cast<int>(c * bins), bins - 1));
    confidence_sum[b] += c;
    right[b] += outcomes[i].correct ? 1 : 0;
    ++out.bins[b].count;
  }
  const auto n = static_cast<double>(outcomes.size());
  for (std::size_t b = 0; b < out.bins.size(); ++b) {
    ReliabilityBin& bin = out.bins[b];
    bin.lower = static_cast<double>(b) / bins;
    bin.upper = static_cast<double>(b + 1) / bins;
    if (bin.count == 0) continue;
    bin.confidence = confidence_sum[b] / static_cast<double>(bin.count);
    bin.accuracy = static_cast<double>(right[b]) / static_cast<double>(bin.count);
    out.ece += static_cast<double>(bin.count) / n * std::abs(bin.accuracy - bin.confidence);
  }
  out.samples = static_cast<std::int64_t>(outcomes.size());
  return out;
}

}  // namespace ascope
