#pragma once
// head_stats.csv: header `step,group,layer,head,metric,value`, one row per metric of each attention
// head at each probe step (engine/analysis/head_statistics.h), appended as training goes. Group
// names may hold spaces ("encoder self") but no commas.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/analysis/head_statistics.h"
#include "engine/core/appended_rows_file.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"  // HeadStatsRow, readHeadStatsCsv
#include "engine/vocabulary/expected.h"

namespace ascope {

class HeadStatsCsvWriter {
 public:
  /// Opens `path` for appending. On resume, rows after `keep_up_to_step` (written after the
  /// checkpoint the run resumes from) and a last row cut short are dropped first, so the file
  /// reads as one run; other rows that cannot be read are kept and said in `warnings`
  /// (AppendedRowsFile::open). Otherwise the file starts afresh with the header.
  static Expected<HeadStatsCsvWriter> open(const std::string& path, bool resume,
                                           int64_t keep_up_to_step,
                                           std::vector<std::string>* warnings = nullptr);

  /// One row per statistic, each with one write(). An error when rows could not be written (a
  /// full disk): said once when writing starts to fail, not for every call after it; ok again once
  /// rows get through. A statistic the reader would refuse (a comma in the group name, a value
  /// out of range) is not written and always named in the error. Non-finite values are written as
  /// "nan".
  [[nodiscard]] Status append(int64_t step, const std::vector<HeadStatistic>& statistics);

 private:
  explicit HeadStatsCsvWriter(AppendedRowsFile file) : file_(std::move(file)) {}
  AppendedRowsFile file_;
};

}  // namespace ascope
