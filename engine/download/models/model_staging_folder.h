#pragma once
// The folder a model is assembled in, next to where it goes: <folder>.part/. Finished files sit
// there under their own names and transfers in progress as <name>.part, so that a broken or
// cancelled download resumes on the next run. A new model folder only ever appears by renaming
// this folder whole, so it is never half-written. A model folder that exists (a download with
// --force) keeps every file that is not the model's: each of the model's files is renamed over
// its old copy, as a journal in the staging folder lists them, so that a process killed half-way
// is finished by the next run (finishInterruptedReplacement) instead of leaving two models mixed.
// A lock on the folder keeps two downloads of the same model apart.
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

  /// True when `target`'s staging folder holds the journal of a replacement that did not finish.
  static bool hasInterruptedReplacement(const std::string& target);
  /// Finishes such a replacement (after open()): moves the files the journal lists that are still
  /// here into the target, removes the ones it supersedes. Nothing to do without a journal.
  Status finishInterruptedReplacement();

  const std::string& path() const { return path_; }
  /// The staging path of `file`.
  std::string pathOf(const std::string& file) const;

  /// Removes every entry but `keep`: parts and files an earlier run chose and this one did not.
  void removeAllBut(const std::vector<std::string>& keep) const;

  /// Puts the staged `files` in place. When the target is missing or an empty folder, the staging
  /// folder is renamed to it. Otherwise each file replaces its namesake in the target, each of
  /// `superseded` is removed from it (an old model's files that the new one lacks and that would
  /// be read instead of it), and nothing else there is touched.
  Status moveIntoPlace(const std::vector<std::string>& files,
                       const std::vector<std::string>& superseded);

 private:
  /// Renames the journal's files into the target and removes the superseded ones; then the
  /// journal.
  Status replaceFiles(const std::vector<std::string>& files,
                      const std::vector<std::string>& superseded);
  std::string journalPath() const;

  std::string target_;
  std::string path_;
  int lock_fd_ = -1;
};

}  // namespace ascope
