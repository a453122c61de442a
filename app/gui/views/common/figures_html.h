#pragma once
// A task's figures as the window writes them: "BLEU 12.3 · chrF 40.1", titled, rounded and
// ordered as the task declares them (TaskDescriptor::metrics).
#include <QString>

#include <string>

#include "engine/vocabulary/figures.h"

namespace ascope {

/// What figuresHtml writes.
enum class FigureSelection {
  kHeadline,     ///< the headline figure only (nothing when the headline is the accuracy)
  kTracked,      ///< every figure an evaluation pass reports
  kAll,          ///< every figure, a whole split's details too
  kNotHeadline,  ///< every figure but the headline
};

/// " · BLEU <b>12.3</b> · chrF 40.1 …" (each figure after " · ", the headline in bold), escaped
/// for rich text; "" when none is selected. Figures the task does not declare come last, under
/// their keys.
QString figuresHtml(const std::string& task, const Figures& figures, FigureSelection selection);

/// One line per figure of `figures` with what it counts, for a tooltip.
QString figuresToolTip(const std::string& task, const Figures& figures);

}  // namespace ascope
