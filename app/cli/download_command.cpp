// `attentionscope-cli download TASK`: fetches a task's dataset from its official source (listed in
// resources/datasets.json) into the per-user data folder (engine/download). Builds without the
// downloader too (the GPU server has no libcurl/libarchive); the command then says so and exits 2.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/subcommands.h"

#if defined(ATTENTIONSCOPE_WITH_DOWNLOAD)
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <csignal>
#include <cstdint>

#include "engine/download/dataset_catalog.h"
#include "engine/download/dataset_downloader.h"
#include "engine/download/datasets_folder.h"
#include "engine/download/sha256.h"
#endif

namespace ascope::cli {

#if !defined(ATTENTIONSCOPE_WITH_DOWNLOAD)

Subcommand addDownloadCommand(CLI::App& app) {
  CLI::App* download = app.add_subcommand("download", "fetch a task's dataset (not in this build)");
  download->allow_extras();  // whatever was asked, the answer is the same
  return {download, [] {
            std::fputs(
                "attentionscope-cli: this build has no downloader (it needs libcurl and "
                "libarchive); fetch the dataset yourself and pass its folder to 'train --data'\n",
                stderr);
            return 2;
          }};
}

#else

namespace {

struct DownloadRequest {
  std::optional<std::string> task, dir, url, sha256;
  bool keep_archive = false;
};

/// The catalog, read once and only when needed (help, or a download).
const Expected<DatasetCatalog>& catalog() {
  static const Expected<DatasetCatalog> loaded = DatasetCatalog::loadDefault();
  return loaded;
}

/// "a|b|c": the tasks the catalog has a dataset for.
std::string catalogTasks(const char* separator) {
  if (!catalog().ok()) return "TASK";
  std::string tasks;
  for (const CatalogEntry& entry : catalog()->entries()) {
    tasks += (tasks.empty() ? "" : separator) + entry.task;
  }
  return tasks;
}

/// One line per dataset: task, name, the folder it lands in.
std::string catalogListing() {
  if (!catalog().ok()) return "datasets: " + catalog().error() + "\n";
  std::string text;
  for (const CatalogEntry& entry : catalog()->entries()) {
    std::string line = "  " + entry.task;
    line.resize(std::max<std::size_t>(line.size() + 2, 14), ' ');
    text += line + entry.name + "  -> <dir>/" + entry.folder + "\n";
  }
  return text;
}

const CLI::Validator kHttpAddress(
    [](std::string& url) -> std::string {
      if (url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0) return {};
      return "\"" + url + "\" is not an http(s) address";
    },
    "");

const CLI::Validator kSha256Digest(
    [](std::string& hex) -> std::string {
      return Sha256::isHexDigest(hex) ? std::string() : "\"" + hex + "\" is not 64 hex digits";
    },
    "");

std::atomic<bool> g_cancel{false};  // set by SIGINT; lock-free, so safe in a signal handler

void requestCancel(int) {
  g_cancel.store(true);
}

/// Ctrl-C cancels the download (the part file is kept) instead of killing the process.
class InterruptCancels {
 public:
  InterruptCancels() : previous_(std::signal(SIGINT, &requestCancel)) {}
  ~InterruptCancels() { std::signal(SIGINT, previous_); }
  InterruptCancels(const InterruptCancels&) = delete;
  InterruptCancels& operator=(const InterruptCancels&) = delete;

 private:
  void (*previous_)(int);
};

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

/// "  42%  71.2 / 170.1 MB  12.3 MB/s  ETA 0:08", or without percent and ETA when the size is
/// unknown.
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

/// Live progress on stderr: rewritten in place on a terminal, one line per tenth otherwise.
class ProgressPrinter {
 public:
  ProgressPrinter() : tty_(::isatty(STDERR_FILENO) != 0) {}

  void update(std::int64_t done, std::int64_t total, double bytes_per_s) {
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

  /// Ends the in-place line so that the next message starts on a line of its own.
  void endLine() {
    if (line_shown_) std::fputc('\n', stderr);
    line_shown_ = false;
  }

 private:
  bool tty_;
  bool line_shown_ = false;
  std::int64_t last_step_ = -1;
};

/// Engine log lines go to stderr, warnings and errors only (progress is shown by the command).
void logWarningsToStderr() {
  // Get before make: a test may run the command twice in one process.
  auto logger = spdlog::get("download");
  if (!logger) logger = spdlog::stderr_color_mt("download");
  logger->set_pattern("%l: %v");
  logger->set_level(spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

int download(const DownloadRequest& o) {
  if (!o.task) return usageError("download needs a task: " + catalogTasks(", "), "download");
  if (!catalog().ok()) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", catalog().error().c_str());
    return 1;
  }
  Expected<CatalogEntry> entry = catalog()->find(*o.task);
  if (!entry.ok()) return usageError(entry.error(), "download");
  if (o.url) entry->url = *o.url;
  if (o.sha256) {
    entry->sha256 = *o.sha256;
    std::transform(entry->sha256.begin(), entry->sha256.end(), entry->sha256.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  }
  const std::string data_dir = o.dir.value_or(defaultDatasetsFolder());
  if (data_dir.empty())
    return usageError("no home folder to put datasets in: pass --dir", "download");

  logWarningsToStderr();
  ProgressPrinter printer;
  DownloadOptions options;
  options.keep_archive = o.keep_archive;
  options.on_stage = [&](FetchStage stage) {
    printer.endLine();
    if (stage == FetchStage::kDownloading) {
      std::fprintf(stderr, "downloading %s from %s\n", entry->name.c_str(), entry->url.c_str());
    } else if (stage == FetchStage::kVerifying) {
      std::fputs("checking SHA-256\n", stderr);
    } else {
      std::fprintf(stderr, "extracting into %s\n", data_dir.c_str());
    }
  };
  Expected<FetchedDataset> fetched = Error{""};
  {
    const InterruptCancels interrupt_cancels;
    fetched = DatasetDownloader(options).fetch(
        *entry, data_dir,
        [&](std::int64_t done, std::int64_t total, double rate) {
          printer.update(done, total, rate);
        },
        &g_cancel);
  }
  printer.endLine();
  if (!fetched.ok()) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", fetched.error().c_str());
    if (g_cancel) std::fputs("run the same command again to resume\n", stderr);
    return 1;
  }
  for (const std::string& warning : fetched->warnings) {
    std::fprintf(stderr, "warning: %s\n", warning.c_str());
  }
  std::fprintf(stderr,
               "%s is %s; train on it with\n  attentionscope-cli train --task %s --data %s\n",
               entry->name.c_str(), fetched->already_present ? "already there" : "ready",
               entry->task.c_str(), fetched->folder.c_str());
  std::printf("%s\n", fetched->folder.c_str());
  return 0;
}

}  // namespace

Subcommand addDownloadCommand(CLI::App& app) {
  auto o = std::make_shared<DownloadRequest>();
  CLI::App* command = app.add_subcommand(
      "download", "fetch a task's dataset from its official source into the data folder");
  command->footer([] {
    return "Downloads a task's dataset from its official source (listed in datasets.json), checks "
           "its\nSHA-256 and extracts it. Run the same command again to resume a download that was "
           "broken\noff or cancelled with Ctrl-C.\n" +
           catalogListing() +
           "\nProgress goes to stderr; the dataset folder is printed on stdout. Then:\n"
           "  attentionscope-cli train --task <task> --data <folder>";
  });
  command->add_option("task", o->task, "the task whose dataset to fetch")->type_name_fn([] {
    return catalogTasks("|");
  });
  command
      ->add_option("--dir", o->dir,
                   "data folder (default: $XDG_DATA_HOME/attentionscope/datasets, else "
                   "~/.local/share/attentionscope/datasets)")
      ->type_name("DIR");
  command->add_option("--url", o->url, "download from this address instead (a mirror)")
      ->type_name("URL")
      ->check(kHttpAddress);
  command->add_option("--sha256", o->sha256, "expect this SHA-256 instead of the catalog's")
      ->type_name("HEX")
      ->check(kSha256Digest);
  command->add_flag("--keep-archive", o->keep_archive,
                    "keep the downloaded archive after extracting it");
  return {command, [o] { return download(*o); }};
}

#endif

int runDownload(const std::vector<std::string>& args) {
  CLI::App app("", "attentionscope-cli");
  useHouseHelpLayout(app);
  const Subcommand download = addDownloadCommand(app);
  std::vector<std::string> command_line = {"download"};
  command_line.insert(command_line.end(), args.begin(), args.end());
  if (const std::optional<int> exit_code = parseCommandLine(app, command_line)) return *exit_code;
  return download.run();
}

}  // namespace ascope::cli
