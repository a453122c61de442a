#include "app/cli/task_help.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "app/cli/cli_options.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope::cli {

std::string taskIds() {
  return TaskRegistry::instance().idList();
}

std::string taskListing() {
  std::string text = "tasks:\n";
  for (const TaskDescriptor* task : TaskRegistry::instance().all()) {
    std::string line = "  " + task->id;
    line.resize(std::max<std::size_t>(line.size() + 2, 14), ' ');
    text += line + task->title + "\n";
    text += std::string(14, ' ') + "presets: " + task->presetList() + "\n";
    if (!task->data_formats.empty()) {
      text += std::string(14, ' ') + "--data: builtin, or " + task->data_formats + "\n";
    }
    if (task->fine_tunes_pretrained) {
      text += std::string(14, ' ') +
              "--model: a pretrained Hugging Face model folder to fine-tune (--preset finetune)\n";
    }
  }
  return text;
}

namespace {

/// "a, b or c": the ids of the tasks `has` holds for.
std::string taskIdsWhere(const std::function<bool(const TaskDescriptor&)>& has) {
  std::vector<std::string> ids;
  for (const TaskDescriptor* task : TaskRegistry::instance().all()) {
    if (has(*task)) ids.push_back(task->id);
  }
  return joinWithOr(ids);
}

}  // namespace

std::string languagePairTaskIds() {
  return taskIdsWhere([](const TaskDescriptor& t) { return static_cast<bool>(t.set_languages); });
}

std::string textSplitTaskIds() {
  return taskIdsWhere([](const TaskDescriptor& t) { return static_cast<bool>(t.text_splits); });
}

}  // namespace ascope::cli
