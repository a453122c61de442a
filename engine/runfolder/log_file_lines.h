#pragma once
// log.txt's lines as the log events a live run sends. spdlog's file sink writes
// "[2026-11-21 14:03:22.123] [trainer] [info] text"; a live run's log events read
// "14:03:22 text", so an opened or followed run's log looks the same.
#include <cstddef>
#include <string_view>
#include <vector>

#include "engine/vocabulary/log_line.h"

namespace ascope {

/// The last `max_lines` non-blank lines of `text` (whole lines of log.txt), each cut to 2000 bytes.
std::vector<LogLine> logFileLines(std::string_view text, std::size_t max_lines);

}  // namespace ascope
