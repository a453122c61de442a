#include "app/cli/output/evaluation_json.h"

#include <nlohmann/json.hpp>

#include "app/cli/output/attention_json.h"
#include "app/cli/output/calibration_output.h"
#include "app/cli/output/json_output_file.h"
#include "engine/core/atomic_file.h"
#include "engine/vocabulary/payloads/sample_input.h"

namespace ascope::cli {
namespace {

nlohmann::json inputJson(const SamplePrediction& p) {
  const ImageBuffer* image = inputOf(p.payloads, p.input).image;
  if (image == nullptr) return p.input;
  // Channel-planar RGB bytes, as CIFAR-10 stores them.
  return {{"width", image->width}, {"height", image->height}, {"pixels", image->pixels}};
}

}  // namespace

nlohmann::json evaluationJson(const EvaluationReport& r) {
  nlohmann::json out = {{"task", r.task},
                        {"run", r.run_dir},
                        {"checkpoint", r.checkpoint},
                        {"step", r.step},
                        {"device", r.device},
                        {"data", r.data},
                        {"split", r.split},
                        {"split_origin", r.split_origin},
                        {"samples", r.samples},
                        {"loss", r.loss},
                        {"accuracy", r.accuracy},
                        {"seconds", r.seconds},
                        {"warnings", r.warnings}};
  // The task's figures, in the order it reports them: {"bleu": 12.3, "cer": 0.41, …}.
  nlohmann::json figures = nlohmann::json::object();
  for (const Figure& f : r.figures) figures[f.key] = f.value;
  out["figures"] = std::move(figures);
  const bool classifier = !r.classes.empty();
  if (classifier) {
    nlohmann::json per_class = nlohmann::json::array();
    for (const ClassScores& c : r.per_class) {
      per_class.push_back({{"class", c.name},
                           {"support", c.support},
                           {"predicted", c.predicted},
                           {"precision", c.precision},
                           {"recall", c.recall},
                           {"f1", c.f1}});
    }
    out["classes"] = r.classes;
    out["confusion_matrix"] = r.confusion;
    out["per_class"] = std::move(per_class);
    out["macro_f1"] = r.macro_f1;
  }
  if (r.calibration) out["calibration"] = calibrationJson(*r.calibration);
  nlohmann::json scored = nlohmann::json::array();
  for (const ScoredSample& s : r.scored) {
    nlohmann::json row = {{"index", s.index},
                          {"label", s.prediction.expected},
                          {"prediction", s.prediction.answer},
                          {"loss", s.loss},
                          {"correct", s.prediction.correct}};
    if (!s.prediction.input.empty()) row["input"] = s.prediction.input;
    if (classifier) row["probability"] = s.prediction.probability;
    scored.push_back(std::move(row));
  }
  out["samples_scored"] = std::move(scored);
  nlohmann::json worst = nlohmann::json::array();
  for (const ExplainedError& e : r.worst) {
    const SamplePrediction& p = e.sample.prediction;
    worst.push_back({{"index", e.sample.index},
                     {"input", inputJson(p)},
                     {"label", p.expected},
                     {"prediction", p.answer},
                     {"probability", p.probability},
                     {"loss", e.sample.loss},
                     {"attention", attentionSnapshotJson(e.attention)}});
  }
  out["worst_errors"] = std::move(worst);
  return out;
}

Status writeEvaluationJson(const std::string& path, const EvaluationReport& report,
                           const std::vector<CommandInput>& inputs) {
  return writeJsonOutputFile(path, evaluationJson(report), inputs);
}

}  // namespace ascope::cli
