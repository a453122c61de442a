// A whole run folder as the window opens it: readRunFiles (engine/runfolder/run_reader.h, what
// readRun and so File → Open run… call) over a folder whose config.json, metrics.csv, newest
// attention snapshot, an older one and log.txt come from the input. The parts are separated by
// kSeparator; a missing part is a missing file. Checked besides "no crash": an error or a run,
// never an exception; the settings read survive to_json and readTrainingConfig unchanged; every
// listed snapshot is one the folder holds, and a damaged one is named in a warning, not listed.
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/training_config_json.h"
#include "fuzz_check.h"

namespace {

namespace fs = std::filesystem;
using ascope::fuzz::check;

constexpr std::string_view kSeparator = "\n=====\n";
// The files the parts become, in order.
constexpr const char* kFiles[] = {"config.json", "metrics.csv", "attention/step_000000020.msgpack",
                                  "attention/step_000000010.msgpack", "log.txt"};
constexpr std::size_t kParts = sizeof kFiles / sizeof kFiles[0];

/// A folder of this process's own under $TMPDIR (or /tmp), made once.
const std::string& runFolder() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr ? tmp : "/tmp") + "/run_reader_fuzz_XXXXXX";
    check(::mkdtemp(pattern.data()) != nullptr);
    fs::create_directories(pattern + "/attention");
    fs::create_directories(pattern + "/checkpoints");
    return pattern;
  }();
  return dir;
}

std::vector<std::string_view> split(std::string_view input) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < kParts) {
    const std::size_t at = input.find(kSeparator);
    if (at == std::string_view::npos) break;
    parts.push_back(input.substr(0, at));
    input.remove_prefix(at + kSeparator.size());
  }
  parts.push_back(input);
  return parts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& dir = runFolder();
  const std::vector<std::string_view> parts =
      split(std::string_view(reinterpret_cast<const char*>(data), size));
  for (std::size_t i = 0; i < kParts; ++i) {
    const std::string path = dir + "/" + kFiles[i];
    if (i < parts.size()) {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(parts[i].data(), static_cast<std::streamsize>(parts[i].size()));
      check(static_cast<bool>(out));
    } else {
      std::error_code ec;
      fs::remove(path, ec);
    }
  }

  ascope::Expected<ascope::OpenedRun> run = ascope::readRunFiles(dir);
  if (!run.ok()) {
    check(!run.error().empty());
    return 0;
  }
  // The settings as read write back and read again to the same settings (the one field table).
  const nlohmann::json written = run->config;
  ascope::Expected<ascope::TrainingConfig> again = ascope::readTrainingConfig(written);
  check(again.ok());
  check(nlohmann::json(*again) == written);
  // Every listed snapshot is a file of the folder, by step; a damaged newest one is not listed.
  std::int64_t previous = -1;
  for (const ascope::AttentionFileEntry& file : run->attention_files) {
    check(file.step > previous);
    previous = file.step;
    check(file.path.rfind(dir + "/attention/", 0) == 0);
  }
  if (!run->attention_files.empty()) check(run->last_probes.has_value());
  for (const std::string& warning : run->warnings) check(!warning.empty());
  return 0;
}
