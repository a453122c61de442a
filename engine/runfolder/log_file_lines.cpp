#include "engine/runfolder/log_file_lines.h"

#include <regex>
#include <string>

#include "engine/core/text_lines.h"

namespace ascope {
namespace {

constexpr std::size_t kMaxLogLineBytes = 2000;

/// `line` cut to kMaxLogLineBytes at a UTF-8 boundary: std::regex recurses once per character,
/// so one megabyte-long line would overflow the stack, and nobody reads such a line in a panel.
std::string shortened(std::string_view line) {
  if (line.size() <= kMaxLogLineBytes) return std::string(line);
  std::size_t end = kMaxLogLineBytes;
  while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xc0) == 0x80) --end;
  return std::string(line.substr(0, end)) + " …";
}

}  // namespace

std::vector<LogLine> logFileLines(std::string_view text, std::size_t max_lines) {
  std::vector<std::string> lines;
  for (std::string_view line : splitLines(text)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    lines.emplace_back(shortened(line));
  }
  if (lines.size() > max_lines) {
    lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(max_lines));
  }
  static const std::regex pattern(
      R"(^\[\d{4}-\d\d-\d\d (\d\d:\d\d:\d\d)[.\d]*\] \[[^\]]*\] \[(\w+)\] (.*)$)");
  static const std::vector<std::string> levels{"trace",   "debug", "info",
                                               "warning", "error", "critical"};
  std::vector<LogLine> out;
  for (const std::string& line : lines) {
    std::smatch m;
    if (!std::regex_match(line, m, pattern)) {
      out.push_back({Severity::kInfo, line});
      continue;
    }
    Severity level = Severity::kInfo;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (levels[i] == m[2].str()) level = static_cast<Severity>(i);
    }
    out.push_back({level, m[1].str() + " " + m[3].str()});
  }
  return out;
}

}  // namespace ascope
