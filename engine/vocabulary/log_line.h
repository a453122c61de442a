#pragma once
// A line of the run's log, with its severity.
#include <cstdint>
#include <string>

namespace ascope {

/// Log levels, numbered as spdlog numbers them.
enum class Severity { kTrace = 0, kDebug = 1, kInfo = 2, kWarning = 3, kError = 4, kCritical = 5 };

struct LogLine {
  Severity level = Severity::kInfo;
  std::string text;
};

}  // namespace ascope
