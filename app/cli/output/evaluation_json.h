#pragma once
// `evaluate --out FILE.json`: an evaluation report for scripts and notebooks.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

#include "engine/core/output_file.h"
#include "engine/vocabulary/evaluation_report.h"
#include "engine/vocabulary/expected.h"

namespace ascope::cli {

/// {"task", "run", "checkpoint", "step", "device", "data", "split", "split_origin", "samples",
///  "loss", "accuracy", "seconds", "warnings",
///  "figures" {key: value} (the task's declared figures, TaskDescriptor::metrics: a translation's
///  "bleu", "chrf", …; empty for a classifier),
///  classification: "classes", "confusion_matrix" ([true][predicted]), "per_class" [{"class",
///  "support", "predicted", "precision", "recall", "f1"}], "macro_f1";
///  a classifier's "calibration" (calibration_output.h: "temperature", "ece", "ece_before",
///  "reliability", …), its probabilities below at that temperature;
///  "samples_scored" [{"index", "label", "prediction", "loss", "correct"} (+ "input" for a text
///  sample, "probability" for classification)];
///  "worst_errors" [{"index", "input" (text, or "image" with "width"/"height"/"pixels"), "label",
///  "prediction", "probability", "loss", "attention": {"groups", "decoding", …}}]}
nlohmann::json evaluationJson(const EvaluationReport& report);

/// Written by writeJsonOutputFile (app/cli/output/json_output_file.h): checked against the
/// command's `inputs`, atomically; text that is not UTF-8 is replaced, as JSON must be.
Status writeEvaluationJson(const std::string& path, const EvaluationReport& report,
                           const std::vector<CommandInput>& inputs);

}  // namespace ascope::cli
