#include "engine/runfolder/learning_rates/learning_rate_changes_csv.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "engine/core/csv_reader.h"
#include "engine/core/number_text.h"
#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"

namespace ascope {
namespace {

constexpr const char* kHeader = "step,lr,previous_lr";
constexpr std::size_t kMaxRowBytes = 128;

std::optional<double> positiveRate(std::string_view text) {
  if (text.empty() || text.size() > 40) return std::nullopt;
  const std::optional<double> value = parseNumber(text);
  if (!value || !std::isfinite(*value) || *value <= 0) return std::nullopt;
  return value;
}

}  // namespace

std::string learningRateChangesPath(const std::string& run_dir) {
  return run_dir + "/learning_rates.csv";
}

Expected<LearningRateChangesWriter> LearningRateChangesWriter::open(
    const std::string& path, bool resume, int64_t keep_up_to_step,
    std::vector<std::string>* warnings) {
  Expected<AppendedRowsFile> file = AppendedRowsFile::open(
      path, kHeader, resume, kMaxLearningRateChangesBytes,
      [keep_up_to_step](std::string_view line) {
        const Expected<LearningRateChange> row = parseLearningRateChangeRow(line);
        if (!row.ok()) return AppendedRowsFile::Row::kUnreadable;
        return row->step <= keep_up_to_step + 1 ? AppendedRowsFile::Row::kKeep
                                                : AppendedRowsFile::Row::kAfter;
      },
      "the learning rate changes", warnings);
  if (!file.ok()) return Error{file.error()};
  return LearningRateChangesWriter(std::move(*file));
}

Status LearningRateChangesWriter::append(const LearningRateChange& change) {
  const std::string row = std::to_string(change.step) + "," + formatNumber(change.lr, 9) + "," +
                          formatNumber(change.previous_lr, 9) + "\n";
  if (row.size() >= kMaxRowBytes) return file_.fail(EOVERFLOW);
  return file_.append(row);
}

Expected<LearningRateChange> parseLearningRateChangeRow(std::string_view line) {
  if (line.size() > kMaxRowBytes) return Error{"the row is too long"};
  const Expected<std::vector<std::string>> fields = csvFields(line);
  if (!fields.ok()) return Error{fields.error()};
  if (fields->size() != 3) return Error{"expected three fields: step,lr,previous_lr"};
  const std::string& step_text = (*fields)[0];
  const std::optional<long long> step = parseCsvInteger(step_text, 1, INT64_MAX);
  if (!step) return Error{"step \"" + step_text + "\" is not a whole number >= 1"};
  const std::string& lr_text = (*fields)[1];
  const std::optional<double> lr = positiveRate(lr_text);
  if (!lr) return Error{"lr \"" + lr_text + "\" is not a positive number"};
  const std::string& previous_text = (*fields)[2];
  const std::optional<double> previous = positiveRate(previous_text);
  // A schedule may have reached 0 (a warm-up's first step, a cosine floor of 0).
  const bool zero = previous_text == "0";
  if (!previous && !zero) {
    return Error{"previous_lr \"" + previous_text + "\" is not a number >= 0"};
  }
  return LearningRateChange{static_cast<int64_t>(*step), *lr, zero ? 0.0 : *previous};
}

Expected<LearningRateChanges> readLearningRateChanges(const std::string& run_dir) {
  const std::string path = learningRateChangesPath(run_dir);
  std::error_code no_file;
  LearningRateChanges result;
  if (!std::filesystem::exists(path, no_file)) return result;
  Expected<std::string> text = readRegularFile(path, kMaxLearningRateChangesBytes, Links::kRefuse);
  if (!text.ok()) return Error{text.error()};
  const std::vector<std::string_view> lines = splitLines(*text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const std::size_t line_number = i + 1;
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
