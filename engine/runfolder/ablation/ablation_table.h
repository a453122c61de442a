#pragma once
// What a head ablation measured: the model as trained, then with heads or layers of attention
// switched off. Plain C++ (no LibTorch), so the GUI can hold and show a table.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/vocabulary/figures.h"

namespace ascope {

/// The `ablation` of an AblationRow.
inline constexpr char kAblationNone[] = "none";  ///< the baseline: every head on
inline constexpr char kAblationDropHead[] = "drop head";
inline constexpr char kAblationKeepOnlyHead[] = "keep only head";  ///< the layer's other heads off
inline constexpr char kAblationDropLayer[] = "drop layer";         ///< every head of the layer off

struct AblationOptions {
  int samples = 512;  ///< validation samples each evaluation runs over (1..100000)
  /// Samples each evaluation generates a whole answer for, for the figures that need one (a
  /// translation's BLEU), in place of the run's own count (TaskDescriptor::set_figure_samples);
  /// 0: no such figures.
  int figure_samples = 64;
  /// > 0: LibTorch's intra-op thread count, process-wide, as `train --threads` sets it.
  int threads = 0;
};

/// Called after every evaluation (and once with done = 0 before the first); returning false
/// cancels the ablation.
using AblationProgress = std::function<bool(int done, int total)>;

struct AblationRow {
  std::string group;  ///< the attention group's name, as the run's snapshots name it
  int layer = -1;     ///< -1 for the baseline
  int head = -1;      ///< -1 for the baseline and "drop layer"
  std::string ablation = kAblationNone;
  int samples = 0;  ///< validation samples evaluated
  double loss = 0;
  double accuracy = 0;  ///< 0..1 (tokens for translation)
  Figures figures;      ///< the task's tracked figures (BLEU for a translation)
};

struct AblationTable {
  AblationRow baseline;
  /// Per group, per layer: "drop head" for every head, "keep only head" for every head, then
  /// "drop layer".
  std::vector<AblationRow> rows;
  std::string task;         ///< the run's task id ("" when read back from ablation.csv)
  std::string checkpoint;   ///< the weights evaluated ("" when the caller gave a live task)
  std::int64_t step = 0;    ///< optimizer steps of that checkpoint
  int decoded_samples = 0;  ///< samples behind each generated figure; 0 when there is none
  /// The figures every row may carry, in column order: the baseline's, in its order.
  std::vector<std::string> figureKeys() const;

  double deltaLoss(const AblationRow& row) const { return row.loss - baseline.loss; }
  double deltaAccuracy(const AblationRow& row) const { return row.accuracy - baseline.accuracy; }
  /// The row's figure `key` minus the baseline's; nullopt when either lacks it.
  std::optional<double> deltaFigure(const AblationRow& row, const std::string& key) const;
  /// The row of `group`, `layer`, `head` and `ablation`; nullptr when the table has none.
  const AblationRow* find(const std::string& group, int layer, int head,
                          const std::string& ablation) const;
  /// Group names in the order the rows first name them.
  std::vector<std::string> groups() const;
};

}  // namespace ascope
