#pragma once
// A fake engine for the app tests: pushes scripted events into an EventQueue exactly as the
// trainer thread would, so the bridge can be tested without training. Plain C++ and free of
// engine/train/events.h.
#include <cstdint>
#include <memory>
#include <string>

namespace ascope {

class EventQueue;

class FakeEngine {
 public:
  FakeEngine();

  std::shared_ptr<EventQueue> queue() const { return queue_; }

  /// StepMetrics for steps first .. first + count - 1 (loss falls, accuracy rises).
  void pushSteps(std::int64_t first, int count, std::int64_t total_steps = 1000);
  void pushEpoch(int epoch, std::int64_t step);
  /// A translation snapshot (encoder self, decoder self, cross; 2 layers × 2 heads), or a ViT one
  /// (one group over CLS + 4 patches, with an image) when `task` is "vit".
  void publishAttention(std::int64_t step, const std::string& task = "translate");
  void publishPositionalEncoding(int positions = 16, int dims = 8);
  void publishSample(const std::string& task = "translate");
  void pushLog(int level, const std::string& text);
  /// 2 = running, 3 = paused (ascope::TrainerState values).
  void pushState(int state);
  void pushFailure(const std::string& message);

  /// A run folder at `dir` with config.json and ViT attention snapshots at steps 10, 20, …
  /// (`count` of them), as a trained run leaves it; false when it cannot be written.
  static bool writeRunFolder(const std::string& dir, int count);

 private:
  std::shared_ptr<EventQueue> queue_;
};

}  // namespace ascope
