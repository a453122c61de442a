#pragma once
// What comparing two run folders reads, on a worker thread (File → Compare with run…): both runs'
// metrics and settings, their snapshots paired by step, and for each attention group the largest
// |A − B| over every paired step and probe sample, so the difference map keeps one colour scale
// while steps, layers and heads are browsed.
#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

#include "engine/runfolder/config/config_difference.h"
#include "engine/runfolder/run_reader.h"
#include "widgets/attention/attention_plot_data.h"

namespace ascope {

struct ComparedRun {
  QString path;
  QString name;  ///< the folder's own name: the legend entry
  std::vector<StepMetrics> steps;
  std::vector<EpochSummary> epochs;
  std::string task;
};

struct RunComparisonData {
  ComparedRun a;
  ComparedRun b;
  std::vector<SettingDifference> settings;
  /// Snapshots of the same step in both runs, by step.
  std::vector<std::pair<AttentionFileEntry, AttentionFileEntry>> paired;
  /// Per attention group: the largest |A − B| of the same probe sample over all paired steps.
  QHash<QString, double> scale;
  QString error;  ///< not comparable at all (a folder is no run); the rest is empty then
  QStringList warnings;
};

/// Both runs' probe sets at one paired step, sample `probe_index` converted for the panels.
struct ComparedStep {
  long long step = -1;
  std::optional<AttentionPlotData> a;
  std::optional<AttentionPlotData> b;
  QString caption_a;  ///< "#3 a wonderful film…"
  QString caption_b;
  int sample_count = 0;  ///< probe samples both sets have
  QStringList captions;  ///< run A's probe samples, for the chooser
  /// Why there is no difference (different probe samples, a file that cannot be read).
  QString problem;
};

RunComparisonData loadRunComparison(const QString& dir_a, const QString& dir_b);
ComparedStep loadComparedStep(const QString& path_a, const QString& path_b, int probe_index);

}  // namespace ascope
