#pragma once
// Where the time of a run's attention probes goes, part by part, so that a dense timeline is paid
// for by cheap probes rather than by rare ones: the attention forward (with the predicted classes
// it gives), the generated predictions (greedy translations, made by some probes only), the
// positional encoding, the head statistics, and recording (the snapshot written to the run
// folder, the event queued for the GUI).
#include <chrono>
#include <string>

namespace ascope {

struct ProbeCost {
  double attention_s = 0;
  double predictions_s = 0;
  double encoding_s = 0;
  double statistics_s = 0;
  double recording_s = 0;
  long long probes = 0;
  long long generated = 0;  ///< probes that also generated predictions (translations)

  double total() const {
    return attention_s + predictions_s + encoding_s + statistics_s + recording_s;
  }
  /// "attention 0.21 s, generated predictions 0.40 s (12 probes), encoding 0.01 s, statistics
  /// 0.05 s, recording 0.12 s; 6.3 ms a probe"
  std::string text() const;
};

/// Adds the seconds from its creation to its end to `seconds`.
class ProbeTimer {
 public:
  explicit ProbeTimer(double& seconds)
      : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
  ~ProbeTimer() {
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  ProbeTimer(const ProbeTimer&) = delete;
  ProbeTimer& operator=(const ProbeTimer&) = delete;

 private:
  double& seconds_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace ascope
