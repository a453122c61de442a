#include "app/cli/task_help.h"

#include <algorithm>
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

std::string languagePairTaskIds() {
  std::vector<std::string> ids;
  for (const TaskDescriptor* task : TaskRegistry::instance().all()) {
    if (task->set_languages) ids.push_back(task->id);
  }
  return joinWithOr(ids);
}

}  // namespace ascope::cli
