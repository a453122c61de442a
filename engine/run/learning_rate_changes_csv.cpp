#include "engine/run/learning_rate_changes_csv.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "engine/data/regular_file.h"

namespace ascope {
namespace {

constexpr const char* kHeader = "step,lr,previous_lr";
constexpr std::size_t kMaxRowBytes = 128;

std::optional<int64_t> wholeNumber(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

std::optional<double> positiveRate(std::string_view text) {
  if (text.empty() || text.size() > 40) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || errno == ERANGE || !std::isfinite(value) || value <= 0) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::string learningRateChangesPath(const std::string& run_dir) {
  return run_dir + "/learning_rates.csv";
}

Expected<LearningRateChangesWriter> LearningRateChangesWriter::open(const std::string& path,
                                                                    bool resume,
                                                                    int64_t keep_up_to_step) {
  Expected<AppendedRowsFile> file = AppendedRowsFile::open(
      path, kHeader, resume, kMaxLearningRateChangesBytes,
      [keep_up_to_step](std::string_view line) {
        const Expected<LearningRateChange> row = parseLearningRateChangeRow(line);
        return row.ok() && row->step <= keep_up_to_step + 1;
      },
      "the learning rate changes");
  if (!file.ok()) return Error{file.error()};
  return LearningRateChangesWriter(std::move(*file));
}

Status LearningRateChangesWriter::append(const LearningRateChange& change) {
  char row[kMaxRowBytes];
  const int length =
      std::snprintf(row, sizeof row, "%lld,%.9g,%.9g\n", static_cast<long long>(change.step),
                    change.lr, change.previous_lr);
  if (length < 0 || static_cast<std::size_t>(length) >= sizeof row) return file_.fail(EOVERFLOW);
  return file_.append(std::string_view(row, static_cast<std::size_t>(length)));
}

Expected<LearningRateChange> parseLearningRateChangeRow(std::string_view line) {
  if (line.size() > kMaxRowBytes) return Error{"the row is too long"};
  const std::size_t first = line.find(',');
  const std::size_t second = first == std::string_view::npos ? first : line.find(',', first + 1);
  if (second == std::string_view::npos || line.find(',', second + 1) != std::string_view::npos) {
    return Error{"expected three fields: step,lr,previous_lr"};
  }
  const std::optional<int64_t> step = wholeNumber(line.substr(0, first));
  if (!step)
    return Error{"step \"" + std::string(line.substr(0, first)) + "\" is not a whole number >= 1"};
  const std::string_view lr_text = line.substr(first + 1, second - first - 1);
  const std::optional<double> lr = positiveRate(lr_text);
  if (!lr) return Error{"lr \"" + std::string(lr_text) + "\" is not a positive number"};
  const std::string_view previous_text = line.substr(second + 1);
  const std::optional<double> previous = positiveRate(previous_text);
  // A schedule may have reached 0 (a warm-up's first step, a cosine floor of 0).
  const bool zero = previous_text == "0";
  if (!previous && !zero) {
    return Error{"previous_lr \"" + std::string(previous_text) + "\" is not a number >= 0"};
  }
  return LearningRateChange{*step, *lr, zero ? 0.0 : *previous};
}

Expected<LearningRateChanges> readLearningRateChanges(const std::string& run_dir) {
  const std::string path = learningRateChangesPath(run_dir);
  std::error_code no_file;
  LearningRateChanges result;
  if (!std::filesystem::exists(path, no_file)) return result;
  Expected<std::string> text = readRegularFile(path, kMaxLearningRateChangesBytes);
  if (!text.ok()) return Error{text.error()};
  std::string_view rest = *text;
  int line_number = 0;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_number;
    if (line_number == 1) {
      if (line != kHeader) {
        return Error{path + ": line 1 is not the header \"" + std::string(kHeader) + "\""};
      }
      continue;
    }
    if (line.empty()) continue;
    const Expected<LearningRateChange> row = parseLearningRateChangeRow(line);
    if (!row.ok()) {
      result.warnings.push_back(path + ": line " + std::to_string(line_number) +
                                " skipped: " + row.error());
      continue;
    }
    result.changes.push_back(*row);
  }
  std::stable_sort(
      result.changes.begin(), result.changes.end(),
      [](const LearningRateChange& a, const LearningRateChange& b) { return a.step < b.step; });
  return result;
}

}  // namespace ascope
