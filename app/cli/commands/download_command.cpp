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
#include <algorithm>
#include <cctype>
#include <cstdint>

#include "app/cli/output/progress_printer.h"
#include "app/cli/output/warning_log.h"
#include "app/cli/training/interrupt_cancels.h"
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
  std::optional<double> timeout;
  bool keep_archive = false;
};

/// A day: a longer wait is no timeout.
constexpr double kMaxTimeoutSeconds = 86400;

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
  if (o.timeout) options.limits = TransferLimits::uniform(*o.timeout);
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
        &InterruptCancels::flag());
  }
  printer.endLine();
  if (!fetched.ok()) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", fetched.error().c_str());
    if (InterruptCancels::flag()) std::fputs("run the same command again to resume\n", stderr);
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
           "broken\noff or cancelled with Ctrl-C or SIGTERM (a second one exits at once).\n" +
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
  command
      ->add_option("--timeout", o->timeout,
                   "give up on a server that does not connect, answer or send the next byte "
                   "within this many seconds (default: 30 to connect, 60 for the rest)")
      ->type_name("SECONDS")
      ->check(realIn(0, kMaxTimeoutSeconds, /*open=*/true));
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
