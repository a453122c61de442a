#pragma once
// A fake engine for the app tests: a RunControl, like the Trainer, whose events are the ones a
// test pushes, exactly as the trainer thread would, so the bridge and the panels can be tested
// without training. It records the commands it is given.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/event_queue.h"
#include "engine/vocabulary/run_control.h"

namespace ascope {

class FakeEngine final : public RunControl {
 public:
  FakeEngine();

  void pause() override { commands.push_back("pause"); }
  void resume() override { commands.push_back("resume"); }
  void stepOnce() override { commands.push_back("step"); }
  void stop() override { commands.push_back("stop"); }
  void setLearningRate(double lr) override { commands.push_back("lr " + std::to_string(lr)); }
  void setProbeSample(int index) override { commands.push_back("probe " + std::to_string(index)); }
  EventBatch drainEvents() override { return queue_.drain(); }
  bool finished() const override { return finished_.load(); }

  /// The run has ended (after pushing its final state): the bridge drains once more and stops.
  void finish() { finished_ = true; }
  /// The commands received, in order ("pause", "resume", "step", "stop", "lr 0.001000", …).
  std::vector<std::string> commands;

  /// StepMetrics for steps first .. first + count - 1 (loss falls, accuracy rises).
  void pushSteps(std::int64_t first, int count, std::int64_t total_steps = 1000);
  void pushEpoch(int epoch, std::int64_t step);
  /// The final test of a run ending at `step`, with the weights of `weights_step` (best ones
  /// when it differs): 5000 samples, loss 0.3012, accuracy 0.871.
  void pushTestEvaluation(std::int64_t step, std::int64_t weights_step);
  /// A translation snapshot (encoder self, decoder self, cross; 2 layers × 2 heads), or an image
  /// one (one group over CLS + 4 patches, with an image) for the image-classification task.
  void publishAttention(std::int64_t step, const std::string& task = kTranslationTaskId);
  void publishPositionalEncoding(int positions = 16, int dims = 8);
  void publishSample(const std::string& task = kTranslationTaskId);
  /// Entropy of every head of the image task's group ("encoder", 2 layers × 2 heads) at `step`,
  /// 0.1 · (layer · 2 + head + 1); with a change of kind for layer 1 head 0 when `note`.
  void pushHeadStatistics(std::int64_t step, bool note = false);
  void announceRunFolder(const std::string& path);
  void pushLog(int level, const std::string& text);
  /// 2 = running, 3 = paused (ascope::TrainerState values).
  void pushState(int state);
  void pushFailure(const std::string& message);
  /// A learning rate sent while the run went, as the engine reports it once a batch used it.
  void pushLearningRateChange(std::int64_t step, double lr, double previous_lr) {
    queue_.pushLearningRateChange({step, lr, previous_lr});
  }

  /// A run folder at `dir` with config.json and image attention snapshots at steps 10, 20, …
  /// (`count` of them), as a trained run leaves it: each carries the sample (predicted label
  /// "predicted at step N") and a positional encoding of 4 + i positions; false when it cannot
  /// be written.
  static bool writeRunFolder(const std::string& dir, int count);

 private:
  EventQueue queue_;
  std::atomic<bool> finished_{false};
};

}  // namespace ascope
