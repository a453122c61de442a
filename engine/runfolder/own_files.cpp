#include "engine/runfolder/own_files.h"

#include <filesystem>
#include <system_error>

#include "engine/core/regular_file.h"

namespace ascope {

Status checkOwnFolders(const std::string& run_dir) {
  for (const char* sub : {"/attention", "/checkpoints", "/pretrained"}) {
    if (Status s = refuseSymbolicLink(run_dir + sub); !s.ok()) return s;
  }
  return {};
}

std::vector<CommandInput> runFolderInputs(const std::string& run_dir) {
  std::vector<CommandInput> inputs;
  for (const char* name :
       {"config.json", "metrics.csv", "log.txt", "head_stats.csv", "ablation.csv",
        "learning_rates.csv", "bookmarks.json", ".lock", "classes.json"}) {
    inputs.push_back({run_dir + "/" + name, "a file of the run"});
  }
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(run_dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool words = name.rfind("tokenizer", 0) == 0 && entry.path().extension() == ".json";
    const bool pieces = name.rfind("pieces_", 0) == 0 && entry.path().extension() == ".model";
    if (words || pieces) {
      inputs.push_back({entry.path().string(), "a file of the run"});
    }
  }
  for (const char* sub : {"checkpoints", "attention", "pretrained"}) {
    inputs.push_back({run_dir + "/" + sub, std::string("the run's ") + sub + " folder"});
  }
  return inputs;
}

}  // namespace ascope
