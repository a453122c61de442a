#pragma once
// learning_rates.csv in a run folder: header `step,lr,previous_lr`, one row per learning rate set
// while the run went on (the Run dock's live control), appended as it happens, so that an opened
// run marks the changes on its curves as the live run did, and a resumed run keeps the rate.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/appended_rows_file.h"
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// RUN_DIR/learning_rates.csv.
std::string learningRateChangesPath(const std::string& run_dir);

/// A person sets a handful; a file far larger than this is not one of ours.
inline constexpr std::uint64_t kMaxLearningRateChangesBytes = std::uint64_t{1} << 20;

class LearningRateChangesWriter {
 public:
  /// Opens `path` for appending. On resume, changes after step `keep_up_to_step` + 1 (sent after
  /// the checkpoint the run resumes from was written, and applied to steps that are trained again)
  /// and a last row cut short are dropped first; other rows that cannot be read are kept and said
  /// in `warnings` (AppendedRowsFile::open). Otherwise the file starts afresh with the header.
  static Expected<LearningRateChangesWriter> open(const std::string& path, bool resume,
                                                  int64_t keep_up_to_step,
                                                  std::vector<std::string>* warnings = nullptr);

  /// One row with one write(); an error (a full disk) names the file.
  [[nodiscard]] Status append(const LearningRateChange& change);

 private:
  explicit LearningRateChangesWriter(AppendedRowsFile file) : file_(std::move(file)) {}
  AppendedRowsFile file_;
};

/// One data row; an error naming what is wrong when it is not one the writer could have written
/// (a step that is not a whole number >= 1, a rate that is not a positive finite number).
Expected<LearningRateChange> parseLearningRateChangeRow(std::string_view line);

struct LearningRateChanges {
  std::vector<LearningRateChange> changes;  ///< by step
  std::vector<std::string> warnings;        ///< rows skipped, naming the file and line
};

/// The changes of a run folder; none when the folder has no learning_rates.csv (runs made
/// before it, runs whose rate was never changed). Errors: not a regular file, over
/// kMaxLearningRateChangesBytes, a first line that is not the header.
Expected<LearningRateChanges> readLearningRateChanges(const std::string& run_dir);

}  // namespace ascope
