#pragma once
// Reads a run folder's files back for inspection: config, the metrics as the events a live run
// would have sent, the attention timeline, head statistics, ablation, learning-rate changes and
// the end of the log. The positional encoding, which needs the model, is added one layer up
// (engine/inference/read_run.h: readRun, what front ends call, off their UI thread).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/runfolder/ablation/ablation_table.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

/// One stored attention snapshot of a run's timeline.
struct AttentionFileEntry {
  std::int64_t step = 0;
  std::string path;
};

struct OpenedRun {
  std::string path;  ///< absolute
  TrainingConfig config;
  std::vector<StepMetrics> steps;  ///< the train rows of metrics.csv
  std::vector<EpochSummary> epochs;
  /// The newest test row of metrics.csv: the whole held-out split at the end of the run (none
  /// in runs that were stopped, or made before the final test).
  std::optional<TestEvaluation> test;
  std::vector<AttentionFileEntry> attention_files;  ///< by step
  /// Snapshots left out of `attention_files` because they do not decode, so that a later
  /// listing of the folder leaves them out too.
  std::vector<std::string> damaged_snapshots;
  std::optional<ProbeSet> last_probes;        ///< the newest stored probe set
  std::vector<HeadStatsRow> head_statistics;  ///< head_stats.csv, by step
  std::optional<AblationTable> ablation;      ///< ablation.csv, the run's last head ablation
  std::vector<LearningRateChange> learning_rate_changes;  ///< learning_rates.csv, by step
  /// Recomputed from the newest checkpoint by readRun (engine/inference/read_run.h).
  std::optional<PositionalEncodingSnapshot> positional_encoding;
  std::vector<LogLine> log;           ///< the end of log.txt, as a live run's log events
  std::vector<std::string> warnings;  ///< what could not be read (the rest is still there)
};

/// Reads every file a run folder holds (all but the positional encoding); an error only when it
/// is not a run folder at all, or its config.json cannot be read as a run's settings (the error
/// names the file and the setting). A file that is a symbolic link is not read, and a snapshot
/// that does not decode is left out of `attention_files`; each is named in `warnings`.
Expected<OpenedRun> readRunFiles(const std::string& dir);

/// Checks, without opening anything but config.json, what loading the run's model would read:
/// config.json is a regular file within 1 MiB and 32 levels of nesting (checkJsonLimits), and
/// nothing among the folder's JSON files or in checkpoints/ and pretrained/ is a FIFO, device,
/// socket or symbolic link, nor are those folders links (tokenizers, classes.json and
/// checkpoints are opened by LibTorch and nlohmann, which would block on a FIFO and follow a link
/// out of the folder). Call before inferFromCheckpoint / positionalEncodingFromCheckpoint on a
/// pool thread.
Status checkRunFilesReadable(const std::string& run_dir);

/// The attention snapshot files of a run folder, by step.
std::vector<AttentionFileEntry> listAttentionFiles(const std::string& run_dir);

}  // namespace ascope
