#include "engine/runfolder/run_folder.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/core/atomic_file.h"
#include "engine/core/json_file.h"
#include "engine/core/regular_file.h"
#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/config/run_config_check.h"
#include "engine/vocabulary/training_config_json.h"

namespace ascope {
namespace fs = std::filesystem;

namespace {

std::string timestampedName(const std::string& task) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm local{};
  localtime_r(&now, &local);
  std::ostringstream name;
  name << "runs/" << std::put_time(&local, "%Y-%m-%d_%H-%M-%S") << "_" << task;
  return name.str();
}

Status refuseExistingRun(const std::string& path) {
  // Another run's metrics and checkpoints would be overwritten or, worse, mixed with this one's.
  if (fs::exists(path + "/config.json")) {
    return Error{path + " already holds a run; continue it with --resume or choose another folder"};
  }
  return {};
}

std::vector<std::string> entryNames(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// runs/<date>_<time>_<task>, or with _2, _3 … when a run started in the same second has it.
/// Returned created, so that two starts never get the same one.
Expected<std::string> makeTimestampedFolder(const std::string& task) {
  const std::string base = timestampedName(task);
  std::error_code ec;
  fs::create_directories(fs::path(base).parent_path(), ec);
  if (ec) {
    return Error{fs::path(base).parent_path().string() + ": cannot create folder: " + ec.message()};
  }
  for (int n = 1; n < 1000; ++n) {
    const std::string path = n == 1 ? base : base + "_" + std::to_string(n);
    if (fs::create_directory(path, ec)) return path;
    if (ec) return Error{path + ": cannot create folder: " + ec.message()};
  }
  return Error{base + ": too many runs started in the same second"};
}

}  // namespace

Expected<RunFolder> RunFolder::create(const std::string& dir, const std::string& task) {
  const std::string path = dir.empty() ? timestampedName(task) : dir;
  if (Status s = refuseExistingRun(path); !s.ok()) return Error{s.error()};
  RunFolder folder(path);
  if (Status s = folder.makeFolders(); !s.ok()) return Error{s.error()};
  return folder;
}

Expected<RunFolder> RunFolder::open(const std::string& dir) {
  // Opening only reads: a run on read-only media or a copied folder stays as it is.
  if (!fs::is_directory(dir)) return Error{dir + ": no such run folder"};
  if (!fs::exists(dir + "/config.json")) return Error{dir + ": not a run folder (no config.json)"};
  return RunFolder(dir);
}

Status RunFolder::makeFolders() const {
  std::error_code ec;
  for (const char* sub : {"", "/attention", "/checkpoints"}) {
    fs::create_directories(path_ + sub, ec);
    if (ec) return Error{path_ + sub + ": cannot create folder: " + ec.message()};
  }
  return {};
}

Expected<RunFolderWriter> RunFolderWriter::createNew(const std::string& dir,
                                                     const std::string& task) {
  std::string path = dir;
  bool made_dir = false;
  if (dir.empty()) {
    Expected<std::string> made = makeTimestampedFolder(task);
    if (!made.ok()) return Error{made.error()};
    path = *made;
    made_dir = true;
  } else {
    // Checked before anything is made, and again under the lock against a run starting meanwhile.
    if (Status s = refuseExistingRun(path); !s.ok()) return Error{s.error()};
    std::error_code ec;
    made_dir = !fs::exists(path, ec);
    fs::create_directories(path, ec);
    if (ec || !fs::is_directory(path)) {
      return Error{path + ": cannot create folder" + (ec ? ": " + ec.message() : std::string())};
    }
  }
  Expected<RunFolderLock> lock = RunFolderLock::acquire(path);
  if (!lock.ok()) {
    std::error_code ec;
    if (made_dir) fs::remove(path, ec);  // only while still empty: the holder may be writing in it
    return Error{lock.error()};
  }
  RunFolderWriter writer(RunFolder(path), std::move(*lock));
  writer.new_run_ = true;
  writer.made_dir_ = made_dir;
  writer.existing_ = entryNames(path);
  if (Status s = refuseExistingRun(path); !s.ok()) {
    writer.discardNewRun();
    return Error{s.error()};
  }
  if (Status s = writer.folder_.makeFolders(); !s.ok()) {
    writer.discardNewRun();
    return Error{s.error()};
  }
  return Expected<RunFolderWriter>(std::move(writer));
}

namespace {

/// The first symbolic link among the entries of the run folder `path` and of its attention/ and
/// checkpoints/, as an error: a run writes only into its own folder, and a link there (log.txt
/// to a file elsewhere) would have a resumed run append to or replace what it points to.
Status refuseLinksIn(const std::string& path) {
  for (const std::string& sub :
       {std::string(), std::string("/attention"), std::string("/checkpoints")}) {
    if (Status s = refuseSymbolicLink(path + sub); !s.ok()) return s;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path + sub, ec)) {
      if (Status s = refuseSymbolicLink(entry.path().string()); !s.ok()) return s;
    }
  }
  return {};
}

}  // namespace

Expected<RunFolderWriter> RunFolderWriter::openForResume(const std::string& dir) {
  Expected<RunFolder> folder = RunFolder::open(dir);
  if (!folder.ok()) return Error{folder.error()};
  if (Status s = refuseLinksIn(folder->path()); !s.ok()) return Error{s.error()};
  Expected<RunFolderLock> lock = RunFolderLock::acquire(folder->path());
  if (!lock.ok()) return Error{lock.error()};
  RunFolderWriter writer(std::move(*folder), std::move(*lock));
  for (const std::string& sub :
       {std::string(), std::string("/attention"), std::string("/checkpoints")}) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(writer.folder_.path() + sub, ec)) {
      if (entry.is_regular_file(ec) && isAtomicWriteTempName(entry.path().filename().string())) {
        fs::remove(entry.path(), ec);
      }
    }
  }
  if (Status s = writer.folder_.makeFolders(); !s.ok()) return Error{s.error()};
  return Expected<RunFolderWriter>(std::move(writer));
}

void RunFolderWriter::discardNewRun() {
  if (!new_run_ || !lock_.held()) return;
  const std::string& path = folder_.path();
  for (const std::string& name : entryNames(path)) {
    if (!std::binary_search(existing_.begin(), existing_.end(), name)) {
      std::error_code ec;
      fs::remove_all(path + "/" + name, ec);
    }
  }
  lock_.release();
  std::error_code ec;
  if (made_dir_) fs::remove(path, ec);  // fails, as it should, if anything new appeared meanwhile
  new_run_ = false;
}

Status RunFolder::writeConfig(const TrainingConfig& config) const {
  return writeFileAtomically(configPath(), nlohmann::json(config).dump(2) + "\n");
}

Expected<TrainingConfig> RunFolder::readConfig() const {
  // A regular file of at most 1 MiB, nested at most 32 deep: nlohmann's parser recurses, and a
  // FIFO would block the reader forever.
  Expected<nlohmann::json> json =
      readJsonFile(configPath(), {kMaxConfigJsonBytes, 32}, Links::kRefuse);
  if (!json.ok()) return Error{json.error()};
  if (Status s = checkRunConfigJson(*json, configPath()); !s.ok()) return Error{s.error()};
  Expected<TrainingConfig> config = readTrainingConfig(*json);
  if (!config.ok()) return Error{configPath() + ": " + config.error()};
  return config;
}

std::string RunFolder::attentionPath(int64_t step) const {
  std::ostringstream name;
  name << attentionDir() << "/step_" << std::setw(9) << std::setfill('0') << step << ".msgpack";
  return name.str();
}

Expected<std::uint64_t> RunFolder::writeProbeSet(const ProbeSet& probes) const {
  const std::string bytes = encodeProbeSet(probes);
  if (Status s = writeFileAtomically(attentionPath(probes.step), bytes); !s.ok()) {
    return Error{s.error()};
  }
  return static_cast<std::uint64_t>(bytes.size());
}

std::vector<std::string> RunFolder::attentionFiles() const {
  std::vector<std::string> files;
  // A link in attention/'s place leads out of the folder: nothing listed (checkOwnFolders,
  // engine/runfolder/own_files.h, names it). A link in a snapshot's place is listed, so that the
  // reader refuses it by name like any other damaged snapshot (readProbeSet never follows it).
  if (!refuseSymbolicLink(attentionDir()).ok()) return files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(attentionDir(), ec)) {
    if (entry.path().extension() != ".msgpack") continue;
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());  // zero-padded step numbers sort by step
  return files;
}

}  // namespace ascope
