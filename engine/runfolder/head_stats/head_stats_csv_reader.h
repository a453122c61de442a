#pragma once
// Reading head_stats.csv back (the GUI opening a run, a resume trimming it): one row per metric of
// one attention head at one probe step. Plain C++ (no LibTorch), so that the parser can be fuzzed
// (tests/fuzz/head_stats_csv_fuzzer.cpp); the writer is in
// engine/runfolder/head_stats/head_stats_csv_writer.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/analysis/head_statistics.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct HeadStatsRow {
  int64_t step = 0;
  HeadStatistic statistic;
};

inline constexpr const char* kHeadStatsCsvHeader = "step,group,layer,head,metric,value";
/// Read whole by the GUI; a six-layer translator with eight heads writes about 50 KiB per probe.
inline constexpr std::uint64_t kMaxHeadStatsCsvBytes = std::uint64_t{64} << 20;
/// A file of more rows is refused (only rows far shorter than the writer's could get there).
inline constexpr std::size_t kMaxHeadStatsRows = std::size_t{2} << 20;
/// A row is under 130 bytes; a longer line is not one of ours.
inline constexpr std::size_t kMaxHeadStatsLineBytes = 256;
inline constexpr std::size_t kMaxHeadStatsGroupBytes = 64;
/// Layer and head indices are below this.
inline constexpr int kMaxHeadStatsIndex = 1024;
/// Distances are in tokens or pixels; more than this is not a distance in an attention map.
inline constexpr double kMaxHeadStatsDistance = 1e6;

/// One data row, or what is wrong with it ("metric \"foo\" is not one of entropy, …"). Values
/// may be "nan" (a diverged run); otherwise metrics with range [0, 1] must lie in it (give or
/// take 0.001 of rounding) and distances in [0, kMaxHeadStatsDistance].
Expected<HeadStatsRow> parseHeadStatsRow(std::string_view line);

/// The text of a head_stats.csv. Rows cut short, as the last line of a run that was killed or the
/// row a full disk cut (the writer starts the next row on a line of its own), are skipped: lines of
/// fewer than six fields, and six fields whose value is empty or stops part-way through a number.
/// Errors, starting with `name`: no header on line 1, any other malformed row ("name:7: layer
/// \"-1\" is not a whole number in 0..1023"), more than kMaxHeadStatsRows rows.
Expected<std::vector<HeadStatsRow>> parseHeadStatsCsv(std::string_view text,
                                                      const std::string& name);

/// parseHeadStatsCsv of the file at `path`. Errors also: not a regular file, over
/// kMaxHeadStatsCsvBytes.
Expected<std::vector<HeadStatsRow>> readHeadStatsCsv(const std::string& path);

}  // namespace ascope
