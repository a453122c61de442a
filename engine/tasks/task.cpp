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

Expected<InferenceOutcome> Task::inferText(const std::string&) {
  return Error{"this task classifies images; give an image"};
}

Expected<InferenceOutcome> Task::inferImage(const ImageBuffer&) {
  return Error{"this task reads text; give a text"};
}

}  // namespace ascope
