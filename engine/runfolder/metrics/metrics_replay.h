#pragma once
// metrics.csv rows turned back into the events a live run sent: a train row into StepMetrics, a
// val row into an EpochSummary (its train figures the mean of the train rows since the previous
// val row), a test row into a TestEvaluation. Rows may come in pieces, as they do from a run that
// another process is still writing (engine/runfolder/run_folder_tail.h).
#include <optional>
#include <vector>

#include "engine/runfolder/metrics/metrics_csv_reader.h"
#include "engine/vocabulary/events.h"

namespace ascope {

class MetricsReplay {
 public:
  /// Appends the event of `row` to `steps` or `epochs`, or sets `test` (the newest wins).
  void add(const MetricsRow& row, std::vector<StepMetrics>& steps,
           std::vector<EpochSummary>& epochs, std::optional<TestEvaluation>& test);

 private:
  int epoch_train_rows_ = 0;
  double loss_sum_ = 0, accuracy_sum_ = 0;
};

}  // namespace ascope
