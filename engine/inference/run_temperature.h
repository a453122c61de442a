#pragma once
// The temperature a run's answers are shown at (issue 56): calibration.json's, when it was fitted
// to the weights that answer; else 1, and the reason said. What `infer`, "Try it", `evaluate` and
// the Errors dock apply. Plain C++ (reads one file).
#include <cstdint>
#include <string>

namespace ascope {

struct RunTemperature {
  double temperature = 1;
  /// For a person: where the temperature came from, or why it is 1.
  std::string source;
  /// A calibration.json refused (the file, the key and the value named); "" otherwise.
  std::string warning;
  /// The run has a temperature, but for the weights of another step (best.pt's, while last.pt
  /// answers): worth saying where the answer is shown.
  bool for_other_weights = false;
};

/// The temperature for the weights of `weights_step` of the run in `run_dir`.
RunTemperature runTemperature(const std::string& run_dir, std::int64_t weights_step);

}  // namespace ascope
