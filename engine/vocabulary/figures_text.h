#pragma once
// Figures as a line of text for logs and the CLI: "BLEU 12.3 · CER 0.412", each titled and
// rounded as its task declares it.
#include <string>
#include <vector>

#include "engine/vocabulary/figures.h"
#include "engine/vocabulary/metric_info.h"

namespace ascope {

/// "title value" for each of `figures` in its order, joined by `separator`; a figure `declared`
/// does not name is written under its key (undeclaredMetric).
std::string figuresText(const Figures& figures, const std::vector<MetricInfo>& declared,
                        const std::string& separator = " ");

}  // namespace ascope
