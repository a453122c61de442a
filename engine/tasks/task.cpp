#include "engine/tasks/task.h"

namespace ascope {

int64_t Task::splitSize(DataSplit split) const {
  switch (split) {
    case DataSplit::kTrain:
      return trainSize();
    case DataSplit::kValidation:
      return validationSize();
    case DataSplit::kTest:
      return testSize();
  }
  return 0;
}

Expected<std::vector<ScoredSample>> Task::scoreSplit(DataSplit, const ScoringProgress&) {
  return Error{"this task cannot score a data set sample by sample"};
}

EvaluationOutcome Task::summarizeScores(const std::vector<ScoredSample>& scored) const {
  EvaluationOutcome out;
  if (scored.empty()) return out;
  double loss = 0, right = 0;
  for (const ScoredSample& s : scored) {
    loss += s.loss;
    right += s.prediction.correct ? 1 : 0;
  }
  out.loss = loss / static_cast<double>(scored.size());
  out.accuracy = right / static_cast<double>(scored.size());
  return out;
}

std::vector<AttentionSnapshot> Task::probeSamples(const std::vector<int>& indices) {
  std::vector<AttentionSnapshot> probed;
  probed.reserve(indices.size());
  for (int index : indices) {
    probed.push_back(probeAttention(index));
    probed.back().sample = predictSample(index);
  }
  return probed;
}

std::vector<int64_t> Task::validationRows(const std::vector<int>& indices) const {
  std::vector<int64_t> rows;
  if (validationSize() == 0) return rows;
  for (int index : indices) rows.push_back(index % validationSize());
  return rows;
}

std::vector<SamplePrediction> Task::generatePredictions(const std::vector<int>& indices) {
  std::vector<SamplePrediction> predictions;
  predictions.reserve(indices.size());
  for (int index : indices) predictions.push_back(predictSample(index));
  return predictions;
}

Expected<InferenceOutcome> Task::inferText(const std::string&) {
  return Error{"this task classifies images; give an image"};
}

Expected<InferenceOutcome> Task::inferImage(const ImageBuffer&) {
  return Error{"this task reads text; give a text"};
}

}  // namespace ascope
