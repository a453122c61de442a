#include "engine/runfolder/head_stats/head_stats_csv_writer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

namespace ascope {
namespace {

/// "0.123457" (six significant digits, like %.6g) or "nan". std::to_chars ignores the locale,
/// which snprintf would not: a GUI under a decimal-comma locale would write "0,5".
std::string formatValue(double value) {
  if (!std::isfinite(value)) return "nan";
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                    std::chars_format::general, 6);
  return std::string(buffer.data(), result.ptr);
}

std::string formatRow(int64_t step, const HeadStatistic& s) {
  return std::to_string(step) + "," + s.group + "," + std::to_string(s.layer) + "," +
         std::to_string(s.head) + "," + s.metric + "," + formatValue(s.value);
}

}  // namespace

Expected<HeadStatsCsvWriter> HeadStatsCsvWriter::open(const std::string& path, bool resume,
                                                      int64_t keep_up_to_step,
                                                      std::vector<std::string>* warnings) {
  Expected<AppendedRowsFile> file = AppendedRowsFile::open(
      path, kHeadStatsCsvHeader, resume, kMaxHeadStatsCsvBytes,
      [keep_up_to_step](std::string_view line) {
        const Expected<HeadStatsRow> row = parseHeadStatsRow(line);
        if (!row.ok()) return AppendedRowsFile::Row::kUnreadable;
        return row->step <= keep_up_to_step ? AppendedRowsFile::Row::kKeep
                                            : AppendedRowsFile::Row::kAfter;
      },
      "the head statistics", warnings);
  if (!file.ok()) return Error{file.error()};
  return HeadStatsCsvWriter(std::move(*file));
}

Status HeadStatsCsvWriter::append(int64_t step, const std::vector<HeadStatistic>& statistics) {
  std::string refused;  // the first statistic not written for what it holds
  Status written;       // the error that started a failing stretch, said once
  for (const HeadStatistic& statistic : statistics) {
    const std::string row = formatRow(step, statistic);
    // What the reader would refuse is not written: it would make the whole file unreadable.
    if (Expected<HeadStatsRow> check = parseHeadStatsRow(row); !check.ok()) {
      if (refused.empty()) refused = check.error();
      continue;
    }
    if (Status s = file_.append(row + "\n"); !s.ok() && written.ok()) written = s;
  }
  if (!written.ok()) return written;
  if (!refused.empty()) {
    return Error{file_.path() + ": a head statistic of step " + std::to_string(step) +
                 " was not written: " + refused};
  }
  return {};
}

}  // namespace ascope
