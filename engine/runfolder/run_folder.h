#pragma once
// The folder a run leaves behind (see shared/design.md):
//   config.json  metrics.csv  attention/step_XXXXXXXXX.msgpack  checkpoints/{last,best}.pt
//   tokenizer*.json / classes.json  log.txt  head_stats.csv  ablation.csv
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"  // snapshot ⇄ MessagePack
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

class RunFolder {
 public:
  /// Creates `dir` (and its subfolders); an empty `dir` becomes runs/<date>_<time>_<task>.
  static Expected<RunFolder> create(const std::string& dir, const std::string& task);
  /// An existing run folder (must hold config.json).
  static Expected<RunFolder> open(const std::string& dir);
  /// The folder and its attention/ and checkpoints/ subfolders, for writing into it.
  Status makeFolders() const;

  const std::string& path() const { return path_; }
  std::string configPath() const { return path_ + "/config.json"; }
  std::string metricsPath() const { return path_ + "/metrics.csv"; }
  std::string headStatsPath() const { return path_ + "/head_stats.csv"; }
  std::string logPath() const { return path_ + "/log.txt"; }
  std::string checkpointPath(const std::string& name) const {
    return path_ + "/checkpoints/" + name + ".pt";
  }
  std::string attentionDir() const { return path_ + "/attention"; }

  Status writeConfig(const TrainingConfig& config) const;
  Expected<TrainingConfig> readConfig() const;

  /// Stores a probe set as attention/step_<step>.msgpack (atomically); returns its size in bytes.
  Expected<std::uint64_t> writeProbeSet(const ProbeSet& probes) const;
  std::string attentionPath(int64_t step) const;
  /// Snapshot files sorted by step.
  std::vector<std::string> attentionFiles() const;

 private:
  friend class RunFolderWriter;
  explicit RunFolder(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

/// The run folder a trainer writes, locked (RunFolderLock, <run>/.lock) for as long as this object
/// lives, so that a second trainer or a second resume of the same run is refused.
class RunFolderWriter {
 public:
  /// A new run: creates `dir` when missing ("" gives runs/<date>_<time>_<task>, with a suffix
  /// when that is taken) with its subfolders. Refused when `dir` holds a run or another writer.
  static Expected<RunFolderWriter> createNew(const std::string& dir, const std::string& task);
  /// An existing run, to resume it. Temp files that a writer which died mid-write left behind are
  /// removed (nobody else writes here while the lock is held).
  static Expected<RunFolderWriter> openForResume(const std::string& dir);

  const RunFolder& folder() const { return folder_; }

  /// A new run that failed to start: removes everything it added to the folder (the entries that
  /// were not there when the lock was taken, and the folder itself when createNew made it), then
  /// unlocks. The folder is as usable for the next attempt as it was before. Nothing for a resumed
  /// run, whose files all predate this attempt.
  void discardNewRun();

 private:
  RunFolderWriter(RunFolder folder, RunFolderLock lock)
      : folder_(std::move(folder)), lock_(std::move(lock)) {}
  RunFolder folder_;
  RunFolderLock lock_;
  bool new_run_ = false;
  bool made_dir_ = false;              ///< createNew created the folder itself
  std::vector<std::string> existing_;  ///< entries of a new run's folder when it was locked
};

}  // namespace ascope
