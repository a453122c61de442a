#pragma once

#include <QString>

#include <cstdint>

namespace ascope {

// How the head-statistics panels write steps, values and heads, so the grid, its tooltips and
// the note list read alike.

/// "1,200": steps of long runs are read more easily with thousands separators.
QString headStatsStepText(std::int64_t step);
/// Three significant figures without exponent: "0.42", "7.25", "12.5", "140".
QString headStatsValueText(double value);
/// "encoder layer 1 head 2" (0-based, as the attention panel).
QString headStatsHeadName(const QString& group, int layer, int head);
/// "first token mass" for "first_token_mass".
QString headStatsMetricLabel(const QString& metric);

}  // namespace ascope
