#pragma once
// The folder a model is assembled in, next to where it goes: <folder>.part/. Finished files sit
// there under their own names and transfers in progress as <name>.part, so that a broken or
// cancelled download resumes on the next run. The model folder itself only ever appears by renaming
// this folder whole, so a model folder is never half-written. A lock on the folder keeps two
// downloads of the same model apart.
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

class ModelStagingFolder {
 public:
  /// `target`: the model folder to be; the staging folder is `target` + ".part".
  explicit ModelStagingFolder(std::string target);
  /// Removes the staging folder when it is empty, and unlocks it.
  ~ModelStagingFolder();
  ModelStagingFolder(const ModelStagingFolder&) = delete;
  ModelStagingFolder& operator=(const ModelStagingFolder&) = delete;

  /// Creates the staging folder (keeping what an earlier run left) and locks it. Errors name the
  /// folder, e.g. when another download holds it.
  Status open();

  const std::string& path() const { return path_; }
  /// The staging path of `file`.
  std::string pathOf(const std::string& file) const;

  /// Removes every entry but `keep`: parts and files an earlier run chose and this one did not.
  void removeAllBut(const std::vector<std::string>& keep) const;

  /// Renames the staging folder to the target. A target that exists must be empty unless
  /// `replace_existing`; then it is moved aside first and removed once the new one is in place.
  Status moveIntoPlace(bool replace_existing);

 private:
  std::string target_;
  std::string path_;
  int lock_fd_ = -1;
};

}  // namespace ascope
