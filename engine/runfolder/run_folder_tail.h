#pragma once
// Following a run folder that another process is still writing (a CLI run, rank 0 of a job on a
// server, a folder shared over the network): each poll() returns what the folder gained since the
// previous one (new metrics and head-statistics rows, new log lines, a new snapshot, a replaced
// checkpoint) and whether a writer still holds it (its .lock, engine/core/run_folder_lock.h).
// Only appended bytes are read, so a poll of a long run stays cheap; nothing is ever written into
// the folder. Polls block on the file system: front ends call them off their UI thread.
//
//   RunFolderTail tail(dir);          // notes where each file ends now
//   OpenedRun run = readRun(dir);     // everything so far
//   tail.startAfter(run);             // what the first poll may repeat is dropped by step
//   … tail.poll() …                   // on a worker, every second or so
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/growing_file_reader.h"
#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/metrics/metrics_replay.h"
#include "engine/runfolder/run_reader.h"

namespace ascope {

/// What a followed run folder gained since the last poll.
struct RunFolderNews {
  /// metrics.csv was rewritten (the run was resumed from an earlier checkpoint): `steps`,
  /// `epochs` and `test` are then the whole file, to replace what is shown.
  bool restarted = false;
  std::vector<StepMetrics> steps;    ///< new train rows
  std::vector<EpochSummary> epochs;  ///< new validation rows
  std::optional<TestEvaluation> test;
  /// The whole timeline, when a snapshot came or went.
  std::optional<std::vector<AttentionFileEntry>> attention_files;
  /// The newest stored probe set, when it is new; shared on to the timeline, never copied.
  std::shared_ptr<const ProbeSet> newest_probes;
  std::vector<HeadStatsRow> head_statistics;  ///< new rows of head_stats.csv
  std::vector<LogLine> log;                   ///< new lines of log.txt
  bool checkpoint_changed = false;            ///< checkpoints/last.pt or best.pt was replaced
  RunFolderWriterState writer;
  std::vector<std::string> warnings;  ///< what could not be read this time (tried again next time)

  /// Something to show (the writer's state aside).
  bool any() const;
};

class RunFolderTail {
 public:
  /// Notes where every appended file of `dir` ends now: call before the folder is read.
  explicit RunFolderTail(std::string dir);
  /// What the folder held when it was read: a first poll drops rows at or before these steps.
  void startAfter(const OpenedRun& run);
  /// What was added since the last poll (or since startAfter's run).
  RunFolderNews poll();

  const std::string& dir() const { return dir_; }

 private:
  struct FileStamp {
    std::int64_t modified_ns = -1;
    std::int64_t size = -1;
    std::uint64_t inode = 0;
    bool operator==(const FileStamp& o) const {
      return modified_ns == o.modified_ns && size == o.size && inode == o.inode;
    }
  };
  FileStamp stampOf(const std::string& path) const;
  void pollMetrics(RunFolderNews& news);
  void pollHeadStatistics(RunFolderNews& news);
  void pollLog(RunFolderNews& news);
  void pollSnapshots(RunFolderNews& news);

  std::string dir_;
  GrowingFileReader metrics_, head_stats_, log_;
  MetricsReplay replay_;
  /// metrics.csv's columns: its header when the tail began, or a header read since (a file
  /// written afresh); none while the file has no header yet.
  std::optional<MetricsColumns> metrics_columns_;
  std::int64_t last_train_step_ = -1, last_val_step_ = -1, last_test_step_ = -1;
  std::int64_t last_head_stats_step_ = -1;
  std::vector<AttentionFileEntry> attention_files_;
  FileStamp last_checkpoint_, best_checkpoint_;
};

}  // namespace ascope
