#include "engine/runfolder/run_folder_tail.h"

#include <sys/stat.h>

#include <algorithm>
#include <string_view>

#include "engine/core/text_lines.h"
#include "engine/runfolder/log_file_lines.h"
#include "engine/runfolder/run_folder.h"

namespace ascope {
namespace {

// A poll reads at most this much of each file; a writer far ahead is caught up over a few polls.
constexpr std::uint64_t kMaxBytesPerPoll = std::uint64_t{8} << 20;
constexpr std::size_t kMaxLogLinesPerPoll = 1000;

bool sameFiles(const std::vector<AttentionFileEntry>& a, const std::vector<AttentionFileEntry>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].step != b[i].step || a[i].path != b[i].path) return false;
  }
  return true;
}

}  // namespace

bool RunFolderNews::any() const {
  return restarted || !steps.empty() || !epochs.empty() || test || attention_files ||
         newest_probes || !head_statistics.empty() || !log.empty() || checkpoint_changed;
}

RunFolderTail::RunFolderTail(std::string dir)
    : dir_(std::move(dir)),
      metrics_(dir_ + "/metrics.csv"),
      head_stats_(dir_ + "/head_stats.csv"),
      log_(dir_ + "/log.txt") {
  metrics_.skipToEnd();
  if (Expected<MetricsColumns> columns = readMetricsColumns(dir_ + "/metrics.csv"); columns.ok()) {
    metrics_columns_ = std::move(*columns);
  }
  head_stats_.skipToEnd();
  log_.skipToEnd();
  last_checkpoint_ = stampOf(dir_ + "/checkpoints/last.pt");
  best_checkpoint_ = stampOf(dir_ + "/checkpoints/best.pt");
}

void RunFolderTail::startAfter(const OpenedRun& run) {
  if (!run.steps.empty()) last_train_step_ = run.steps.back().step;
  if (!run.epochs.empty()) last_val_step_ = run.epochs.back().step;
  if (run.test) last_test_step_ = run.test->step;
  if (!run.head_statistics.empty()) last_head_stats_step_ = run.head_statistics.back().step;
  attention_files_ = run.attention_files;
}

RunFolderTail::FileStamp RunFolderTail::stampOf(const std::string& path) const {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return {};
  return {static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec,
          static_cast<std::int64_t>(status.st_size), static_cast<std::uint64_t>(status.st_ino)};
}

RunFolderNews RunFolderTail::poll() {
  RunFolderNews news;
  // The writer's state first: whatever it wrote before it let go is read below.
  news.writer = RunFolderLock::inspect(dir_);
  pollMetrics(news);
  pollHeadStatistics(news);
  pollLog(news);
  pollSnapshots(news);
  const FileStamp last = stampOf(dir_ + "/checkpoints/last.pt");
  const FileStamp best = stampOf(dir_ + "/checkpoints/best.pt");
  news.checkpoint_changed = !(last == last_checkpoint_) || !(best == best_checkpoint_);
  last_checkpoint_ = last;
  best_checkpoint_ = best;
  return news;
}

void RunFolderTail::pollMetrics(RunFolderNews& news) {
  Expected<GrowingFileReader::Appended> appended = metrics_.read(kMaxBytesPerPoll);
  if (!appended.ok()) {
    news.warnings.push_back(appended.error());
    return;
  }
  if (appended->replaced) {
    news.restarted = true;
    replay_ = MetricsReplay{};
    last_train_step_ = last_val_step_ = last_test_step_ = -1;
  }
  for (std::string_view line : splitLines(appended->lines)) {
    if (line.size() <= kMaxMetricsHeaderBytes) {
      // The header of a file written afresh (a new or resumed run): its rows follow its columns.
      if (Expected<MetricsColumns> header = MetricsColumns::parse(line); header.ok()) {
        metrics_columns_ = std::move(*header);
        continue;
      }
    }
    if (!metrics_columns_) continue;
    const std::optional<MetricsRow> row = parseMetricsRow(line, *metrics_columns_);
    if (!row) continue;  // a torn row
    // Rows the opened run already had (written between noting the ends and reading) come again.
    std::int64_t& last = row->split == "train"  ? last_train_step_
                         : row->split == "test" ? last_test_step_
                                                : last_val_step_;
    if (row->step <= last && !news.restarted) continue;
    last = row->step;
    replay_.add(*row, news.steps, news.epochs, news.test);
  }
}

void RunFolderTail::pollHeadStatistics(RunFolderNews& news) {
  Expected<GrowingFileReader::Appended> appended = head_stats_.read(kMaxBytesPerPoll);
  if (!appended.ok()) {
    news.warnings.push_back(appended.error());
    return;
  }
  if (appended->replaced) last_head_stats_step_ = -1;
  std::int64_t newest = last_head_stats_step_;
  for (std::string_view line : splitLines(appended->lines)) {
    Expected<HeadStatsRow> row = parseHeadStatsRow(line);
    if (!row.ok() || row->step <= last_head_stats_step_) continue;
    newest = std::max(newest, row->step);
    news.head_statistics.push_back(std::move(*row));
  }
  last_head_stats_step_ = newest;
}

void RunFolderTail::pollLog(RunFolderNews& news) {
  Expected<GrowingFileReader::Appended> appended = log_.read(kMaxBytesPerPoll);
  if (!appended.ok()) {
    news.warnings.push_back(appended.error());
    return;
  }
  news.log = logFileLines(appended->lines, kMaxLogLinesPerPoll);
}

void RunFolderTail::pollSnapshots(RunFolderNews& news) {
  std::vector<AttentionFileEntry> files = listAttentionFiles(dir_);
  if (sameFiles(files, attention_files_)) return;
  const std::int64_t known_newest = attention_files_.empty() ? -1 : attention_files_.back().step;
  if (!files.empty() && files.back().step > known_newest) {
    Expected<ProbeSet> probes = readProbeSet(files.back().path);
    if (probes.ok()) {
      news.newest_probes = std::make_shared<const ProbeSet>(std::move(*probes));
    } else {
      // Written atomically, so a failure is a real one (or the file was thinned out since).
      news.warnings.push_back(probes.error());
    }
  }
  attention_files_ = files;
  news.attention_files = std::move(files);
}

}  // namespace ascope
