#include "engine/tasks/pretrained_artifacts.h"

#include <filesystem>
#include <system_error>

namespace ascope {

namespace fs = std::filesystem;

Status copyPretrainedArtifacts(const std::string& model_folder, const std::string& run_dir,
                               const std::vector<std::string>& names) {
  const fs::path target = fs::path(run_dir) / kPretrainedArtifactsFolder;
  std::error_code ec;
  fs::create_directories(target, ec);
  if (ec) return Error{target.string() + ": cannot create: " + ec.message()};
  if (model_folder.empty()) return {};
  for (const std::string& name : names) {
    const fs::path source = fs::path(model_folder) / name;
    if (!fs::is_regular_file(source, ec)) continue;
    fs::copy_file(source, target / name, fs::copy_options::overwrite_existing, ec);
    if (ec) return Error{(target / name).string() + ": cannot copy: " + ec.message()};
  }
  return {};
}

}  // namespace ascope
