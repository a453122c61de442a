#pragma once

#include "widgets/tables/head_ablation_data.h"

#include <QString>

#include <optional>

namespace ascope {

/// What an ablation table compares with the baseline: the accuracy (in percentage points), the
/// loss, or one of the task's figures (in its own unit).
struct HeadAblationMeasure {
  enum class Kind { Accuracy, Loss, Figure };
  Kind kind = Kind::Accuracy;
  int figure = -1;          ///< Figure: index into HeadAblationData::figures and rows' values
  HeadAblationFigure info;  ///< Figure: its title, direction and rounding

  static HeadAblationMeasure accuracy() { return {}; }
  static HeadAblationMeasure loss() { return {Kind::Loss, -1, {}}; }
  /// Figure `index` of `data` (an index it lacks gives the accuracy).
  static HeadAblationMeasure figureOf(const HeadAblationData& data, int index);
  /// -1 accuracy, -2 loss, else the figure's index: a chooser's item data.
  int id() const;
  static HeadAblationMeasure fromId(const HeadAblationData& data, int id);

  friend bool operator==(const HeadAblationMeasure& a, const HeadAblationMeasure& b) {
    return a.kind == b.kind && a.figure == b.figure;
  }
  friend bool operator!=(const HeadAblationMeasure& a, const HeadAblationMeasure& b) {
    return !(a == b);
  }
};

/// "Δ accuracy", "Δ BLEU", "Δ loss".
QString headAblationMeasureName(const HeadAblationMeasure& measure);

/// The row's change versus the baseline in the measure's unit: accuracy in percentage points
/// (0.781 vs 0.812 gives −3.1), a figure in its own, loss as is. Empty when a figure is missing
/// on either side.
std::optional<double> headAblationDelta(const HeadAblationRow& row,
                                        const HeadAblationBaseline& baseline,
                                        const HeadAblationMeasure& measure);

/// How much worse a change is, in its own unit: positive when accuracy or a higher-is-better
/// figure fell, or the loss or a lower-is-better figure rose; negative when the model got better.
double headAblationHarm(double delta, const HeadAblationMeasure& measure);

/// Signed, with a real minus: "−3.1 pt" (accuracy), "+1.2" (a figure, its decimals), "+0.052"
/// (loss); "0.0 pt" rather than "−0.0 pt".
QString headAblationDeltaText(double delta, const HeadAblationMeasure& measure);

}  // namespace ascope
