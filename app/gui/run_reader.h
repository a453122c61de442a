#pragma once
// Reads a run folder back for inspection (File → Open run folder…): config, metrics curves, the
// attention timeline and, recomputed from the checkpoint, the positional encoding. Engine side of
// the conversion (see gui_batch.h). Reading may take a moment: call it off the GUI thread.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

#include "app/gui/gui_batch.h"
#include "engine/core/expected.h"
#include "engine/train/training_config.h"

namespace ascope {

/// One stored attention snapshot of a run's timeline.
struct AttentionFileEntry {
  std::int64_t step = 0;
  QString path;
};

struct OpenedRun {
  QString path;
  TrainingConfig config;
  std::vector<SeriesPoint> train_loss;
  std::vector<SeriesPoint> train_accuracy;
  std::vector<EpochReport> epochs;
  std::optional<ProgressReport> last_step;          ///< the newest train row of metrics.csv
  std::vector<AttentionFileEntry> attention_files;  ///< by step
  std::optional<AttentionFrame> last_attention;
  std::optional<PositionalEncodingData> positional_encoding;
  std::vector<LogEntry> log;  ///< the end of log.txt
  QStringList warnings;       ///< what could not be read (the rest is still shown)
};

/// Reads everything a run folder holds; an error only when it is not a run folder at all.
Expected<OpenedRun> readRun(const QString& dir);

/// The attention snapshot files of a run folder, by step.
std::vector<AttentionFileEntry> listAttentionFiles(const QString& run_dir);

/// One snapshot of the timeline.
Expected<AttentionFrame> readAttentionFrame(const QString& path);

}  // namespace ascope
