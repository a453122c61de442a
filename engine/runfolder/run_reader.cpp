#include "engine/runfolder/run_reader.h"

#include <filesystem>
#include <string_view>

#include "engine/core/json_limits.h"
#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"
#include "engine/runfolder/ablation/ablation_csv.h"
#include "engine/runfolder/learning_rates/learning_rate_changes_csv.h"
#include "engine/runfolder/log_file_lines.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/metrics/metrics_replay.h"
#include "engine/runfolder/own_files.h"
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

void readMetrics(const RunFolder& folder, OpenedRun& run) {
  Expected<MetricsCsv> csv = readMetricsCsv(folder.metricsPath());
  if (!csv.ok()) {
    run.warnings.push_back(csv.error());
    return;
  }
  // Skipped rows are reported, the others still make the curves.
  run.warnings.insert(run.warnings.end(), csv->warnings.begin(), csv->warnings.end());
  MetricsReplay replay;
  for (const MetricsRow& row : csv->rows) replay.add(row, run.steps, run.epochs, run.test);
}

/// The last `max_lines` lines of log.txt, from its last kLogTailBytes only: a long run's log can
/// be hundreds of MB. spdlog's file sink writes "[2026-11-21 14:03:22.123] [trainer] [info] text";
/// a live run's log events read "14:03:22 text", so the opened run's log looks the same.
void readLog(const RunFolder& folder, OpenedRun& run, std::size_t max_lines = 1000) {
  std::error_code ec;
  // Older runs have none; a link in its place is refused by name (it showed /etc/passwd).
  if (!std::filesystem::exists(std::filesystem::symlink_status(folder.logPath(), ec))) return;
  Expected<FileTail> tail = readRegularFileTail(folder.logPath(), kLogTailBytes, Links::kRefuse);
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
  run.log = logFileLines(text, max_lines);
}

}  // namespace

Status checkRunFilesReadable(const std::string& run_dir) {
  const std::string config_path = run_dir + "/config.json";
  Expected<std::string> config = readRegularFile(config_path, kMaxConfigJsonBytes, Links::kRefuse);
  if (!config.ok()) return Error{config.error()};
  if (Status s = checkJsonLimits(*config, config_path); !s.ok()) return s;
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return Error{folder.error()};
  if (Status s = checkOwnFolders(folder->path()); !s.ok()) return s;
  // Loading the model reads the JSON files beside config.json (tokenizers, class names), those
  // of pretrained/ and a checkpoint; metrics.csv and log.txt are not its business. Links are
  // not followed out of the folder.
  for (const char* sub : {"", "/checkpoints", "/pretrained"}) {
    std::error_code ec;
    const std::string dir = run_dir + sub;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (*sub == '\0' && it->path().extension() != ".json") continue;
      const std::filesystem::file_status status = it->symlink_status(ec);
      if (ec || std::filesystem::is_regular_file(status) || std::filesystem::is_directory(status)) {
        continue;
      }
      if (Status s = requireRegularFile(it->path().string(), Links::kRefuse); !s.ok()) return s;
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
  // A regular file (never a FIFO, which would block this pool thread for good, nor a link), within
  // its size and nesting limits, every setting of its kind.
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return Error{config.error()};
  OpenedRun run;
  if (Status s = checkOwnFolders(folder->path()); !s.ok()) run.warnings.push_back(s.error());
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
  // symlink_status: a link in a file's place is read, and refused by name, not passed over.
  if (std::filesystem::exists(std::filesystem::symlink_status(head_stats, no_file))) {
    Expected<std::vector<HeadStatsRow>> rows = readHeadStatsCsv(head_stats);
    if (rows.ok()) {
      run.head_statistics = std::move(*rows);
    } else {
      run.warnings.push_back(rows.error());
    }
  }
  const std::string ablation = folder->path() + "/ablation.csv";
  if (std::filesystem::exists(std::filesystem::symlink_status(ablation, no_file))) {
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
  // The newest snapshot that reads: a damaged one is left out of the timeline with a note, and
  // the one before it stands in (a damaged newest file hid 151 good ones).
  while (!run.attention_files.empty()) {
    Expected<ProbeSet> snapshot = readProbeSet(run.attention_files.back().path);
    if (snapshot.ok()) {
      run.last_probes = std::move(*snapshot);
      break;
    }
    run.warnings.push_back("attention snapshot left out: " + snapshot.error());
    run.damaged_snapshots.push_back(run.attention_files.back().path);
    run.attention_files.pop_back();
  }
  return run;
}

}  // namespace ascope
