#include "app/cli/output/progress_printer.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace ascope::cli {
namespace {

std::string megabytes(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / 1e6);
  return text;
}

std::string duration(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
  }
  return text;
}

std::string progressLine(std::int64_t done, std::int64_t total, double bytes_per_s) {
  std::string line;
  if (total > 0) {
    const int percent = static_cast<int>(std::min<std::int64_t>(100, done * 100 / total));
    line = (percent < 10    ? "   "
            : percent < 100 ? "  "
                            : " ") +
           std::to_string(percent) + "%  " + megabytes(done) + " / " + megabytes(total) + " MB";
  } else {
    line = "  " + megabytes(done) + " MB";
  }
  if (bytes_per_s > 0) {
    line += "  " + megabytes(static_cast<std::int64_t>(bytes_per_s)) + " MB/s";
    if (total > done) line += "  ETA " + duration(static_cast<double>(total - done) / bytes_per_s);
  }
  return line;
}

}  // namespace

ProgressPrinter::ProgressPrinter() : tty_(::isatty(STDERR_FILENO) != 0) {}

void ProgressPrinter::update(std::int64_t done, std::int64_t total, double bytes_per_s) {
  const std::string line = progressLine(done, total, bytes_per_s);
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    line_shown_ = true;
    return;
  }
  // A log file gets a line per tenth of the file, or per 10 MB when the size is unknown.
  const std::int64_t step = total > 0 ? done * 10 / total : done / 10'000'000;
  if (step <= last_step_) return;
  std::fprintf(stderr, "%s\n", line.c_str());
  last_step_ = step;
}

void ProgressPrinter::endLine() {
  if (line_shown_) std::fputc('\n', stderr);
  line_shown_ = false;
}

}  // namespace ascope::cli
