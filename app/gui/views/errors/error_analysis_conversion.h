#pragma once
// An evaluation report (engine/evaluation/run_evaluation.h) as the Errors dock's plain data: the
// figures in a sentence, the confusion matrix, every sample's answer.
#include "engine/vocabulary/evaluation_report.h"
#include "widgets/tables/error_analysis_data.h"

namespace ascope {

ErrorAnalysisData toErrorAnalysisData(const EvaluationReport& report);

}  // namespace ascope
