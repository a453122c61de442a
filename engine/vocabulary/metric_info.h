#pragma once
// A figure a task reports besides its loss and accuracy (BLEU, an edit distance, …), as the task
// declares it in its descriptor: the name it is stored under, how people read it and which way is
// better. Everything that shows or stores figures (metrics.csv, the curves, the Run, Errors and
// Ablation docks, `evaluate`'s JSON, the CLI's summary) iterates over these declarations instead of
// naming any one figure.
#include <string>
#include <vector>

namespace ascope {

/// Which way a figure improves.
enum class Better { kHigher, kLower };

struct MetricInfo {
  /// Its name in files and JSON: a column of metrics.csv and ablation.csv, a key of `evaluate`'s
  /// "figures". Lower-case letters, digits and '_', starting with a letter (isMetricKey).
  std::string key;
  std::string title;        ///< as people read it: "BLEU", "edit distance"
  std::string description;  ///< one sentence for a tooltip: what it counts, over what
  Better better = Better::kHigher;
  int decimals = 3;  ///< digits after the point when shown
  /// The run's figure of merit, shown first in summaries. A task without one has its accuracy
  /// as its headline.
  bool headline = false;
  /// Reported by every evaluation pass (metrics.csv, the curves, the ablation table). Off: only
  /// by a scoring of a whole split (`evaluate`, the Errors dock), e.g. BLEU's n-gram precisions.
  bool tracked = true;
  /// What its values run to: 100 for a score out of 100 (BLEU, chrF), 1 for a rate or a share
  /// (CER, WER, exact match). Figures of one scale share a chart (the handout's); chrF drawn with
  /// the rates left them flat at zero.
  double full_scale = 1;

  /// `value` with `decimals` digits, in the C locale ("12.3").
  std::string format(double value) const;
  /// Whether `a` is better than `b` by this figure's direction.
  bool isBetter(double a, double b) const;
};

/// Whether `key` can name a figure: 1–32 characters of [a-z0-9_], starting with a letter, and
/// none of metrics.csv's own columns ("step", "loss", …).
bool isMetricKey(const std::string& key);

/// The declaration of `key` in `metrics`; nullptr when it has none.
const MetricInfo* findMetric(const std::vector<MetricInfo>& metrics, const std::string& key);

/// A figure found in a file whose task declares nothing about it (a run of a task this build does
/// not know): its key as title, higher better, four decimals.
MetricInfo undeclaredMetric(const std::string& key);

}  // namespace ascope
