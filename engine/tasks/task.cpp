#include "engine/tasks/task.h"

namespace ascope {

Expected<InferenceOutcome> Task::inferText(const std::string&) {
  return Error{"this task classifies images; give an image"};
}

Expected<InferenceOutcome> Task::inferImage(const ImageBuffer&) {
  return Error{"this task reads text; give a text"};
}

}  // namespace ascope
