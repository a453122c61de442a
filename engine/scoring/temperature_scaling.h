#pragma once
// Temperature scaling (Guo et al., 2017): a classifier's logits divided by one scalar T before
// the softmax. The answer (the largest logit) stays; only how sure it sounds changes. Plain C++,
// no LibTorch: applied to scored samples' logits, or to the probabilities of an answer's ranking
// (softmax(z / T) = normalised p^(1/T), so the logits are not needed there).
#include <string>
#include <utility>
#include <vector>

#include "engine/scoring/calibration_error.h"
#include "engine/vocabulary/evaluation_report.h"

namespace ascope {

/// softmax(logits / temperature), in double.
std::vector<double> temperedProbabilities(const std::vector<float>& logits, double temperature);

/// Mean cross-entropy of each sample's true class at `temperature`, over the samples carrying
/// logits and a true class within them; 0 when none does.
double temperedLoss(const std::vector<ScoredSample>& scored, double temperature);

/// Each sample's answer and whether it was right, its confidence taken at `temperature`
/// (samples without logits keep the probability they have).
std::vector<ConfidenceOutcome> confidenceOutcomes(const std::vector<ScoredSample>& scored,
                                                  double temperature);

/// Sets each sample's shown probability (`prediction.probability`) to its answer's probability at
/// `temperature`; samples without logits are left as they are.
void applyTemperature(std::vector<ScoredSample>& scored, double temperature);

/// A ranking of classes (probabilities, most probable first) at `temperature`, still sorted;
/// temperature 1 gives it back unchanged.
std::vector<std::pair<std::string, double>> temperedRanking(
    const std::vector<std::pair<std::string, double>>& ranking, double temperature);

}  // namespace ascope
