#pragma once
// What a run tells the docks — one shape whether it trains in this window (live: a piece per
// engine event), was opened from its folder (one large piece: everything the folder holds) or
// grows while another process trains it (followed: a piece per poll of the folder). RunController
// makes it and hands it to every dock owner (RunNewsReader); each takes what it shows and leaves
// the rest. A field is empty when the piece says nothing of it.
#include <QHash>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/runfolder/ablation/ablation_table.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"
#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/head_statistics_update.h"
#include "engine/vocabulary/log_line.h"
#include "engine/vocabulary/trainer_state.h"
#include "engine/vocabulary/training_config.h"
#include "engine/vocabulary/training_metrics.h"
#include "widgets/attention/attention_run_maxima.h"

namespace ascope {

/// A run folder read whole: what only an opened run brings.
struct OpenedRunNews {
  QString path;
  TrainingConfig config;
  /// Every readable snapshot, by step, and those left out (did not decode), by path.
  std::vector<AttentionFileEntry> attention_files;
  QStringList left_out;
  /// Per attention group, each head's top over every snapshot: the run's colour scale.
  QHash<QString, AttentionRunMaxima> group_max;
  /// The newest stored probe set, shown first.
  std::shared_ptr<const ProbeSet> newest_probes;
  /// Its step (-1 when the run stored none).
  long long newest_step = -1;
};

struct RunNews {
  enum class Source {
    kLive,      ///< the engine in this window
    kOpened,    ///< a folder read whole
    kFollowed,  ///< a folder another process writes, read as it grows
  };
  Source source = Source::kLive;
  std::string task;             ///< the run's task id
  std::int64_t batch_size = 0;  ///< samples per step (the progress view's rate)
  /// The Attention dock follows the newest probe (a live probe's sample and encoding show now;
  /// scrubbed back, they wait until the timeline comes back to live).
  bool timeline_follows_live = true;

  std::vector<StepMetrics> steps;
  std::vector<EpochSummary> epochs;
  std::optional<TestEvaluation> test;
  std::vector<LearningRateChange> learning_rate_changes;
  /// Live: the probes' new per-head statistics.
  std::vector<HeadStatisticsUpdate> head_updates;
  /// Opened: every row of head_stats.csv; followed: the new rows.
  std::vector<HeadStatsRow> head_rows;
  std::optional<AblationTable> ablation;
  /// Live and followed: the newest probe set (the timeline follows it).
  std::shared_ptr<const ProbeSet> newest_probes;
  /// Live: the probe's; followed: the newest set's; opened: the newest set's, else the
  /// checkpoint's.
  std::optional<PositionalEncodingSnapshot> positional_encoding;
  /// The sample the newest probe answered (opened: the one of the probe sample shown).
  std::optional<SamplePrediction> sample;
  /// New snapshots were written (the run ended, the followed writer wrote some).
  bool attention_files_changed = false;
  std::vector<LogLine> log;
  /// Live: a run starts with these settings.
  std::optional<TrainingConfig> started;
  /// The run's state with a line for people ("opened a run of 400 steps", a failure).
  std::optional<std::pair<TrainerState, QString>> state;
  /// Opened only.
  std::optional<OpenedRunNews> opened;
};

}  // namespace ascope
