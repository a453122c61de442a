#include "engine/run/run_reader.h"

#include <filesystem>
#include <fstream>
#include <regex>

#include "engine/inference/checkpoint_inference.h"
#include "engine/run/metrics_csv.h"
#include "engine/run/run_folder.h"

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

void readMetrics(const RunFolder& folder, OpenedRun& run) {
  Expected<std::vector<MetricsRow>> rows = readMetricsCsv(folder.metricsPath());
  if (!rows.ok()) {
    run.warnings.push_back(rows.error());
    return;
  }
  int epoch_train_rows = 0;
  double loss_sum = 0, accuracy_sum = 0;
  for (const MetricsRow& row : *rows) {
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

/// The last `max_lines` lines of log.txt. spdlog's file sink writes
/// "[2026-11-21 14:03:22.123] [trainer] [info] text"; a live run's log events read
/// "14:03:22 text", so the opened run's log looks the same.
void readLog(const RunFolder& folder, OpenedRun& run, std::size_t max_lines = 1000) {
  std::ifstream file(folder.logPath());
  if (!file) return;
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    lines.push_back(std::move(line));
    if (lines.size() > 2 * max_lines) lines.erase(lines.begin(), lines.end() - max_lines);
  }
  if (lines.size() > max_lines) lines.erase(lines.begin(), lines.end() - max_lines);
  static const std::regex pattern(
      R"(^\[\d{4}-\d\d-\d\d (\d\d:\d\d:\d\d)[.\d]*\] \[[^\]]*\] \[(\w+)\] (.*)$)");
  static const std::vector<std::string> levels{"trace",   "debug", "info",
                                               "warning", "error", "critical"};
  for (const std::string& line : lines) {
    std::smatch m;
    if (!std::regex_match(line, m, pattern)) {
      run.log.push_back({2, line});
      continue;
    }
    int level = 2;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (levels[i] == m[2].str()) level = static_cast<int>(i);
    }
    run.log.push_back({level, m[1].str() + " " + m[3].str()});
  }
}

}  // namespace

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

Expected<OpenedRun> readRun(const std::string& dir) {
  Expected<RunFolder> folder = RunFolder::open(dir);
  if (!folder.ok()) return Error{folder.error()};
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return Error{config.error()};
  OpenedRun run;
  std::error_code ec;
  run.path = std::filesystem::absolute(dir, ec).lexically_normal().string();
  if (!run.path.empty() && run.path.back() == '/') run.path.pop_back();
  run.config = std::move(*config);
  readMetrics(*folder, run);
  readLog(*folder, run);
  run.attention_files = listAttentionFiles(dir);
  if (!run.attention_files.empty()) {
    Expected<AttentionSnapshot> snapshot = readAttentionSnapshot(run.attention_files.back().path);
    if (snapshot.ok()) {
      run.last_attention = std::move(*snapshot);
    } else {
      run.warnings.push_back(snapshot.error());
    }
  }
  Expected<PositionalEncodingSnapshot> pe = positionalEncodingFromCheckpoint(folder->path());
  if (pe.ok()) {
    run.positional_encoding = std::move(*pe);
  } else {
    run.warnings.push_back(pe.error());
  }
  return run;
}

}  // namespace ascope
