#include "engine/run/run_folder.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/core/atomic_file.h"

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

Expected<std::string> readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open"};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

Expected<RunFolder> RunFolder::create(const std::string& dir, const std::string& task) {
  const std::string path = dir.empty() ? timestampedName(task) : dir;
  // Another run's metrics and checkpoints would be overwritten or, worse, mixed with this one's.
  if (fs::exists(path + "/config.json")) {
    return Error{path + " already holds a run; continue it with --resume or choose another folder"};
  }
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

Status RunFolder::writeConfig(const TrainingConfig& config) const {
  return writeFileAtomically(configPath(), nlohmann::json(config).dump(2) + "\n");
}

Expected<TrainingConfig> RunFolder::readConfig() const {
  Expected<std::string> text = readWholeFile(configPath());
  if (!text.ok()) return Error{text.error()};
  try {
    return nlohmann::json::parse(*text).get<TrainingConfig>();
  } catch (const std::exception& e) {
    return Error{configPath() + ": " + e.what()};
  }
}

Status RunFolder::writeAttention(const AttentionSnapshot& snapshot) const {
  std::ostringstream name;
  name << attentionDir() << "/step_" << std::setw(9) << std::setfill('0') << snapshot.step
       << ".msgpack";
  return writeFileAtomically(name.str(), encodeAttentionSnapshot(snapshot));
}

std::vector<std::string> RunFolder::attentionFiles() const {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(attentionDir(), ec)) {
    if (entry.path().extension() == ".msgpack") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());  // zero-padded step numbers sort by step
  return files;
}

std::string encodeAttentionSnapshot(const AttentionSnapshot& s) {
  nlohmann::json groups = nlohmann::json::array();
  for (const AttentionGroup& g : s.groups) {
    nlohmann::json maps = nlohmann::json::array();
    for (const AttentionMap& m : g.maps)
      maps.push_back({{"rows", m.rows}, {"cols", m.cols}, {"values", m.values}});
    groups.push_back({{"name", g.name},
                      {"layers", g.layers},
                      {"heads", g.heads},
                      {"row_labels", g.row_labels},
                      {"col_labels", g.col_labels},
                      {"maps", maps}});
  }
  const nlohmann::json j = {{"version", 1},
                            {"step", s.step},
                            {"task", s.task},
                            {"sample_index", s.sample_index},
                            {"groups", groups},
                            {"image_width", s.image.width},
                            {"image_height", s.image.height},
                            {"image", nlohmann::json::binary(s.image.pixels)},
                            {"patch_size", s.patch_size},
                            {"grid_rows", s.grid_rows},
                            {"grid_cols", s.grid_cols}};
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

Expected<AttentionSnapshot> decodeAttentionSnapshot(const std::string& bytes,
                                                    const std::string& name) {
  try {
    const nlohmann::json j = nlohmann::json::from_msgpack(bytes);
    AttentionSnapshot s;
    s.step = j.at("step").get<int64_t>();
    s.task = j.at("task").get<std::string>();
    s.sample_index = j.value("sample_index", 0);
    for (const auto& g : j.at("groups")) {
      AttentionGroup group;
      group.name = g.at("name").get<std::string>();
      group.layers = g.at("layers").get<int>();
      group.heads = g.at("heads").get<int>();
      group.row_labels = g.at("row_labels").get<std::vector<std::string>>();
      group.col_labels = g.at("col_labels").get<std::vector<std::string>>();
      for (const auto& m : g.at("maps")) {
        AttentionMap map{m.at("rows").get<int>(), m.at("cols").get<int>(),
                         m.at("values").get<std::vector<float>>()};
        if (map.values.size() != static_cast<std::size_t>(map.rows) * map.cols) {
          return Error{name + ": attention map of " + group.name + " has " +
                       std::to_string(map.values.size()) + " values for " +
                       std::to_string(map.rows) + "×" + std::to_string(map.cols)};
        }
        group.maps.push_back(std::move(map));
      }
      if (group.maps.size() != static_cast<std::size_t>(group.layers) * group.heads) {
        return Error{name + ": group " + group.name + " has " + std::to_string(group.maps.size()) +
                     " maps for " + std::to_string(group.layers) + " layers × " +
                     std::to_string(group.heads) + " heads"};
      }
      s.groups.push_back(std::move(group));
    }
    s.image.width = j.value("image_width", 0);
    s.image.height = j.value("image_height", 0);
    if (j.contains("image") && j.at("image").is_binary())
      s.image.pixels = j.at("image").get_binary();
    s.patch_size = j.value("patch_size", 0);
    s.grid_rows = j.value("grid_rows", 0);
    s.grid_cols = j.value("grid_cols", 0);
    return s;
  } catch (const std::exception& e) {
    return Error{name + ": not an attention snapshot (" + e.what() + ")"};
  }
}

Expected<AttentionSnapshot> readAttentionSnapshot(const std::string& path) {
  Expected<std::string> bytes = readWholeFile(path);
  if (!bytes.ok()) return Error{bytes.error()};
  return decodeAttentionSnapshot(*bytes, path);
}

}  // namespace ascope
