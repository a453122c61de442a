#pragma once
// The folder a run leaves behind (see shared/design.md):
//   config.json  metrics.csv  attention/step_XXXXXXXXX.msgpack  checkpoints/{last,best}.pt
//   tokenizer*.json / classes.json  log.txt
#include <string>
#include <vector>

#include "engine/core/expected.h"
#include "engine/train/events.h"
#include "engine/train/training_config.h"

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
  std::string logPath() const { return path_ + "/log.txt"; }
  std::string checkpointPath(const std::string& name) const {
    return path_ + "/checkpoints/" + name + ".pt";
  }
  std::string attentionDir() const { return path_ + "/attention"; }

  Status writeConfig(const TrainingConfig& config) const;
  Expected<TrainingConfig> readConfig() const;

  /// Stores a snapshot as attention/step_<step>.msgpack (atomically).
  Status writeAttention(const AttentionSnapshot& snapshot) const;
  /// Snapshot files sorted by step.
  std::vector<std::string> attentionFiles() const;

 private:
  explicit RunFolder(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

/// Snapshot ⇄ MessagePack (compact; floats stay 32-bit).
std::string encodeAttentionSnapshot(const AttentionSnapshot& snapshot);
Expected<AttentionSnapshot> decodeAttentionSnapshot(const std::string& bytes,
                                                    const std::string& name);
Expected<AttentionSnapshot> readAttentionSnapshot(const std::string& path);

}  // namespace ascope
