#include "app/cli/evaluation_json.h"

#include <nlohmann/json.hpp>

#include "app/cli/attention_json.h"

namespace ascope::cli {
namespace {

nlohmann::json inputJson(const SamplePrediction& p) {
  if (p.image.pixels.empty()) return p.text;
  // Channel-planar RGB bytes, as CIFAR-10 stores them.
  return {{"width", p.image.width}, {"height", p.image.height}, {"pixels", p.image.pixels}};
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
  const bool translation = r.translation.has_value();
  if (translation) {
    const TranslationFigures& t = *r.translation;
    out["translation"] = {
        {"bleu", t.bleu},
        {"bleu_precisions", t.bleu_precisions},
        {"brevity_penalty", t.brevity_penalty},
        {"hypothesis_length", t.hypothesis_length},
        {"reference_length", t.reference_length},
        {"chrf", t.chrf},
        {"cer", t.cer},
        {"wer", t.wer},
        {"exact_match", t.exact_match},
        // sacreBLEU's signature of the same settings: one reference, mixed case, 13a, exp.
        {"bleu_signature", "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp"}};
  } else {
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
  nlohmann::json scored = nlohmann::json::array();
  for (const ScoredSample& s : r.scored) {
    nlohmann::json row = {{"index", s.index},
                          {"label", s.prediction.true_label},
                          {"prediction", s.prediction.predicted_label},
                          {"loss", s.loss},
                          {"correct", s.prediction.correct}};
    if (translation) {
      row["source"] = s.prediction.text;
    } else {
      row["probability"] = s.prediction.probability;
    }
    scored.push_back(std::move(row));
  }
  out["samples_scored"] = std::move(scored);
  nlohmann::json worst = nlohmann::json::array();
  for (const ExplainedError& e : r.worst) {
    const SamplePrediction& p = e.sample.prediction;
    worst.push_back({{"index", e.sample.index},
                     {"input", inputJson(p)},
                     {"label", p.true_label},
                     {"prediction", p.predicted_label},
                     {"probability", p.probability},
                     {"loss", e.sample.loss},
                     {"attention", attentionSnapshotJson(e.attention)}});
  }
  out["worst_errors"] = std::move(worst);
  return out;
}

Status writeEvaluationJson(const std::string& path, const EvaluationReport& report,
                           const std::vector<CommandInput>& inputs) {
  return writeOutputFile(
      path,
      evaluationJson(report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
      inputs);
}

}  // namespace ascope::cli
