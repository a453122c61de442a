#pragma once
// How far a classifier's probabilities are from its hit rate (issue 56): the expected calibration
// error with its reliability diagram, and the temperature that calibrates a run's answers. Plain
// values: the scorer (engine/scoring/calibration_error.h) makes them, the run folder stores them
// (calibration.json), `evaluate`, the Errors dock and the handout show them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ascope {

/// Equal-width confidence bins of a reliability diagram: [0, 0.1), [0.1, 0.2), …, [0.9, 1].
inline constexpr int kReliabilityBins = 10;

/// The temperatures a fit searches and a calibration file may hold. Outside them the answers
/// would be near one-hot or near uniform: no fit on real data lands there, a file that says so
/// was not written by this program.
inline constexpr double kMinTemperature = 0.05;
inline constexpr double kMaxTemperature = 20.0;

/// One bin of a reliability diagram.
struct ReliabilityBin {
  double lower = 0;  ///< confidences from here…
  double upper = 0;  ///< …to here (the last bin includes it)
  std::int64_t count = 0;
  double confidence = 0;  ///< mean confidence of its samples (0 when empty)
  double accuracy = 0;    ///< share of its samples answered right (0 when empty)
};

/// Σ_b (n_b / N) · |accuracy_b − confidence_b| over kReliabilityBins bins, confidence being the
/// probability of the class answered.
struct CalibrationError {
  double ece = 0;
  std::int64_t samples = 0;
  std::vector<ReliabilityBin> bins;
};

/// One split scored with the model's own probabilities (temperature 1) and with the fitted
/// temperature.
struct SplitCalibration {
  std::int64_t samples = 0;
  double nll_before = 0;  ///< mean cross-entropy of the true class at temperature 1
  double nll_after = 0;   ///< … at the fitted temperature
  CalibrationError before;
  CalibrationError after;
};

/// A run's calibration (calibration.json): one temperature dividing the logits of the weights of
/// `weights_step`, fitted on the validation split; the test split, when there is one, only
/// measured with it.
struct RunCalibration {
  double temperature = 1;
  std::int64_t weights_step = 0;
  SplitCalibration validation;
  std::optional<SplitCalibration> test;
};

/// What a scoring of a classifier's split says of its probabilities, and the temperature its
/// shown probabilities are divided by.
struct AppliedCalibration {
  double temperature = 1;
  /// Where the temperature came from, for a person: the file and the split it was fitted on, or
  /// why it is 1 ("no calibration.json: …").
  std::string source;
  CalibrationError before;  ///< the model's own probabilities
  CalibrationError after;   ///< at `temperature` (the same as before at 1)
};

}  // namespace ascope
