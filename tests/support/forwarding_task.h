#pragma once
// A task that hands every call to another one: tests derive from it and override the one call
// they make misbehave (a training step that runs out of memory, an evaluation that throws).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/tasks/task.h"

namespace ascope::testing {

class ForwardingTask : public Task {
 public:
  explicit ForwardingTask(std::unique_ptr<Task> inner) : inner_(std::move(inner)) {}
  torch::nn::Module& model() override { return inner_->model(); }
  int64_t trainSize() const override { return inner_->trainSize(); }
  int64_t validationSize() const override { return inner_->validationSize(); }
  int64_t testSize() const override { return inner_->testSize(); }
  SplitOrigins splitOrigins() const override { return inner_->splitOrigins(); }
  std::string describe() const override { return inner_->describe(); }
  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override {
    return inner_->trainBatch(indices);
  }
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override {
    return inner_->evaluate(split, max_samples, figures);
  }
  Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                 const ScoringProgress& progress) override {
    return inner_->scoreSplit(split, progress);
  }
  AttentionSnapshot probeAttention(int index) override { return inner_->probeAttention(index); }
  SamplePrediction predictSample(int index) override { return inner_->predictSample(index); }
  PositionalEncodingSnapshot positionalEncoding() override { return inner_->positionalEncoding(); }
  std::vector<AttentionSite> attentionSites() override { return inner_->attentionSites(); }
  Status saveArtifacts(const std::string& run_dir) const override {
    return inner_->saveArtifacts(run_dir);
  }

 private:
  std::unique_ptr<Task> inner_;
};

}  // namespace ascope::testing
