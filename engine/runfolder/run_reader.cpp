#include "engine/runfolder/run_reader.h"

#include <filesystem>
#include <regex>
#include <string_view>

#include "engine/core/json_limits.h"
#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"
#include "engine/runfolder/ablation/ablation_csv.h"
#include "engine/runfolder/learning_rates/learning_rate_changes_csv.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/run_folder.h"

namespace ascope {
namespace {

/// "step_000001200.msgpack" → 1200; -1 when the name has no step.
std::int64_t stepOfFile(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  const std::size_t underscore = stem.find('_');
  if (underscore == std::string::npos || underscore + 1 >= stem.size()) return -1;
  std::int64_t step = 0;
  for (std::size_t i = underscore + 1; i < stem.size(); ++i) {
    if (stem[i] < '0' || stem[i] > '9' || step > (INT64_MAX - 9) / 10) return -1;
    step = step * 10 + (stem[i] - '0');
  }
  return step;
}

/// The GUI shows at most this much of log.txt: the end of a long run's log, not all of it.
constexpr std::uint64_t kLogTailBytes = 256 * 1024;
constexpr std::size_t kMaxLogLineBytes = 2000;

TestEvaluation testOf(const MetricsRow& row) {
  TestEvaluation t;
  t.epoch = row.epoch;
  t.step = row.step;
  t.weights_step = row.weights_step.value_or(row.step);
  t.best_weights = t.weights_step != t.step;
  t.samples = row.samples.value_or(0);
  t.loss = row.loss;
  t.accuracy = row.accuracy;
  t.bleu = row.bleu;
  t.cer = row.cer;
  t.wer = row.wer;
  t.exact_match = row.exact_match;
  return t;
}

void readMetrics(const RunFolder& folder, OpenedRun& run) {
  Expected<MetricsCsv> csv = readMetricsCsv(folder.metricsPath());
  if (!csv.ok()) {
    run.warnings.push_back(csv.error());
    return;
  }
  // Skipped rows are reported, the others still make the curves.
  run.warnings.insert(run.warnings.end(), csv->warnings.begin(), csv->warnings.end());
  int epoch_train_rows = 0;
  double loss_sum = 0, accuracy_sum = 0;
  for (const MetricsRow& row : csv->rows) {
    if (row.split == "train") {
      StepMetrics m;
      m.step = m.total_steps = row.step;
      m.epoch = row.epoch;
      m.loss = row.loss;
      m.accuracy = row.accuracy;
      m.lr = row.lr;
      m.samples_per_s = row.samples_per_s;
      run.steps.push_back(m);
      ++epoch_train_rows;
      loss_sum += row.loss;
      accuracy_sum += row.accuracy;
      continue;
    }
    if (row.split == "test") {
      // A run extended after it had finished keeps the first end's row too; the newest wins.
      run.test = testOf(row);
      continue;
    }
    EpochSummary e;
    e.epoch = row.epoch;
    e.step = row.step;
    e.train_loss = epoch_train_rows > 0 ? loss_sum / epoch_train_rows : 0;
    e.train_accuracy = epoch_train_rows > 0 ? accuracy_sum / epoch_train_rows : 0;
    e.val_loss = row.loss;
    e.val_accuracy = row.accuracy;
    e.bleu = row.bleu;
    e.cer = row.cer;
    e.wer = row.wer;
    e.exact_match = row.exact_match;
    run.epochs.push_back(e);
    epoch_train_rows = 0;
    loss_sum = accuracy_sum = 0;
  }
}

/// `line` cut to kMaxLogLineBytes at a UTF-8 boundary: std::regex recurses once per character,
/// so one megabyte-long line would overflow the stack, and nobody reads such a line in a panel.
std::string shortened(std::string_view line) {
  if (line.size() <= kMaxLogLineBytes) return std::string(line);
  std::size_t end = kMaxLogLineBytes;
  while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xc0) == 0x80) --end;
  return std::string(line.substr(0, end)) + " …";
}

/// The last `max_lines` lines of log.txt, from its last kLogTailBytes only: a long run's log can
/// be hundreds of MB. spdlog's file sink writes "[2026-11-21 14:03:22.123] [trainer] [info] text";
/// a live run's log events read "14:03:22 text", so the opened run's log looks the same.
void readLog(const RunFolder& folder, OpenedRun& run, std::size_t max_lines = 1000) {
  std::error_code ec;
  if (!std::filesystem::exists(folder.logPath(), ec)) return;  // older runs have none
  Expected<FileTail> tail = readRegularFileTail(folder.logPath(), kLogTailBytes);
  if (!tail.ok()) {
    run.warnings.push_back(tail.error());
    return;
  }
  std::string_view text = tail->bytes;
  if (tail->cut) {
    // The tail starts inside a line: that fragment would show as a line of its own.
    const std::size_t newline = text.find('\n');
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
  }
  std::vector<std::string> lines;
  for (std::string_view line : splitLines(text)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    lines.emplace_back(shortened(line));
  }
  if (lines.size() > max_lines) lines.erase(lines.begin(), lines.end() - max_lines);
  static const std::regex pattern(
      R"(^\[\d{4}-\d\d-\d\d (\d\d:\d\d:\d\d)[.\d]*\] \[[^\]]*\] \[(\w+)\] (.*)$)");
  static const std::vector<std::string> levels{"trace",   "debug", "info",
                                               "warning", "error", "critical"};
  for (const std::string& line : lines) {
    std::smatch m;
    if (!std::regex_match(line, m, pattern)) {
      run.log.push_back({Severity::kInfo, line});
      continue;
    }
    Severity level = Severity::kInfo;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (levels[i] == m[2].str()) level = static_cast<Severity>(i);
    }
    run.log.push_back({level, m[1].str() + " " + m[3].str()});
  }
}

}  // namespace

Status checkRunFilesReadable(const std::string& run_dir) {
  const std::string config_path = run_dir + "/config.json";
  Expected<std::string> config = readRegularFile(config_path, kMaxConfigJsonBytes);
  if (!config.ok()) return Error{config.error()};
  if (Status s = checkJsonLimits(*config, config_path); !s.ok()) return s;
  // Loading the model reads the JSON files beside config.json (tokenizers, class names) and a
  // checkpoint; metrics.csv and log.txt are not its business.
  for (const bool checkpoints : {false, true}) {
    std::error_code ec;
    const std::string dir = checkpoints ? run_dir + "/checkpoints" : run_dir;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (!checkpoints && it->path().extension() != ".json") continue;
      const std::filesystem::file_status status = it->status(ec);  // symlinks followed
      if (ec || std::filesystem::is_regular_file(status) || std::filesystem::is_directory(status)) {
        continue;
      }
      if (Status s = requireRegularFile(it->path().string()); !s.ok()) return s;
    }
  }
  return {};
}

std::vector<AttentionFileEntry> listAttentionFiles(const std::string& run_dir) {
  std::vector<AttentionFileEntry> files;
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return files;
  for (const std::string& path : folder->attentionFiles()) {
    const std::int64_t step = stepOfFile(path);
    if (step >= 0) files.push_back({step, path});
  }
  return files;
}

Expected<OpenedRun> readRunFiles(const std::string& dir) {
  Expected<RunFolder> folder = RunFolder::open(dir);
  if (!folder.ok()) return Error{folder.error()};
  // readConfig opens config.json itself: a FIFO there would block this pool thread for good, and
  // nlohmann's conversion recurses per nesting level. Refused here first.
  Expected<std::string> config_text = readRegularFile(folder->configPath(), kMaxConfigJsonBytes);
  if (!config_text.ok()) return Error{config_text.error()};
  if (Status s = checkJsonLimits(*config_text, folder->configPath()); !s.ok()) {
    return Error{s.error()};
  }
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return Error{config.error()};
  OpenedRun run;
  std::error_code ec;
  run.path = std::filesystem::absolute(dir, ec).lexically_normal().string();
  if (!run.path.empty() && run.path.back() == '/') run.path.pop_back();
  run.config = std::move(*config);
  readMetrics(*folder, run);
  if (run.test && run.config.splits.layout == 1) {
    // Made before separate test splits: its "test" row was its whole validation split, with the
    // best weights chosen on that same split. Named for what it was.
    run.test->split = "validation";
    run.test->origin = "its validation split (a run made before separate test splits)";
  }
  readLog(*folder, run);
  const std::string head_stats = folder->headStatsPath();
  std::error_code no_file;
  if (std::filesystem::exists(head_stats, no_file)) {
    Expected<std::vector<HeadStatsRow>> rows = readHeadStatsCsv(head_stats);
    if (rows.ok()) {
      run.head_statistics = std::move(*rows);
    } else {
      run.warnings.push_back(rows.error());
    }
  }
  const std::string ablation = folder->path() + "/ablation.csv";
  if (std::filesystem::exists(ablation, no_file)) {
    Expected<AblationTable> table = readAblationCsv(ablation);
    if (table.ok()) {
      run.ablation = std::move(*table);
    } else {
      run.warnings.push_back(table.error());
    }
  }
  if (Expected<LearningRateChanges> rates = readLearningRateChanges(folder->path()); rates.ok()) {
    run.learning_rate_changes = std::move(rates->changes);
    run.warnings.insert(run.warnings.end(), rates->warnings.begin(), rates->warnings.end());
  } else {
    run.warnings.push_back(rates.error());
  }
  run.attention_files = listAttentionFiles(dir);
  if (!run.attention_files.empty()) {
    Expected<ProbeSet> snapshot = readProbeSet(run.attention_files.back().path);
    if (snapshot.ok()) {
      run.last_probes = std::move(*snapshot);
    } else {
      run.warnings.push_back(snapshot.error());
    }
  }
  return run;
}

}  // namespace ascope
