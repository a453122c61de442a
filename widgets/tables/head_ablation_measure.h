#pragma once

#include "widgets/tables/head_ablation_data.h"

#include <QString>

#include <optional>

namespace ascope {

/// What an ablation table compares with the baseline.
enum class HeadAblationMeasure {
  Accuracy,  ///< in percentage points
  Bleu,      ///< in BLEU points
  Loss,
};

/// "Δ accuracy", "Δ BLEU", "Δ loss".
QString headAblationMeasureName(HeadAblationMeasure measure);

/// The row's change versus the baseline in the measure's unit: accuracy in percentage points
/// (0.781 vs 0.812 gives −3.1), BLEU in points, loss as is. Empty when BLEU is missing on either
/// side.
std::optional<double> headAblationDelta(const HeadAblationRow& row,
                                        const HeadAblationBaseline& baseline,
                                        HeadAblationMeasure measure);

/// How much worse a change is, in its own unit: positive when accuracy or BLEU fell or the loss
/// rose, negative when the model got better.
double headAblationHarm(double delta, HeadAblationMeasure measure);

/// Signed, with a real minus: "−3.1 pt", "+0.8 pt" (BLEU too), "+0.052" (loss); "0.0 pt" rather
/// than "−0.0 pt".
QString headAblationDeltaText(double delta, HeadAblationMeasure measure);

}  // namespace ascope
