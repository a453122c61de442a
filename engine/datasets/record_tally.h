#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ascope {

/// Counts one kind of bad record a loader got past (skipped rows, replaced bytes) and remembers
/// where the first few were, so that a single warning line can say
/// "IMDB.csv: 1204 rows skipped for an unknown label (first: line 3, line 9, …)".
class RecordTally {
 public:
  /// `what` follows the count in the warning, e.g. "rows skipped for a missing column".
  explicit RecordTally(std::string what) : what_(std::move(what)) {}

  /// Counts `n` more at `where` (e.g. "line 17", "neg/12_3.txt"); n = 0 records nothing.
  void add(const std::string& where, std::size_t n = 1);
  std::size_t count() const { return count_; }

  /// Appends "`source`: N `what` (first: a, b, …)" to `warnings` when the count is not zero.
  void appendWarning(const std::string& source, std::vector<std::string>& warnings) const;

 private:
  static constexpr std::size_t kExamples = 5;
  std::string what_;
  std::size_t count_ = 0;
  std::size_t places_ = 0;
  std::vector<std::string> examples_;
};

/// `message` followed by the warnings, each without its leading "`source`: ", for the error that
/// stops a load when every record was skipped: "a.csv: no valid rows; 3 rows skipped for …".
std::string withWarnings(std::string message, const std::string& source,
                         const std::vector<std::string>& warnings);

}  // namespace ascope
