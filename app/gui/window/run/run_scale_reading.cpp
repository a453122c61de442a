#include "app/gui/window/run/run_scale_reading.h"

#include <QThread>
#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>

#include "app/gui/views/attention/attention_plot_conversion.h"
#include "engine/analysis/head_maxima.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"

namespace ascope {
namespace {

/// What one snapshot file gives: its groups' tops, or why it did not decode.
struct FileTops {
  std::vector<std::pair<QString, AttentionRunMaxima>> tops;
  std::optional<std::string> error;
};

FileTops readFileTops(const AttentionFileEntry& file) {
  FileTops out;
  Expected<ProbeSet> probes = readProbeSet(file.path);
  if (!probes.ok()) {
    out.error = probes.error();
    return out;
  }
  for (const AttentionSnapshot& snapshot : probes->samples) {
    for (const AttentionGroup& group : snapshot.groups) {
      out.tops.emplace_back(attentionGroupTitle(snapshot.task, group.name),
                            AttentionRunMaxima(informativeHeadMaxima(group)));
    }
  }
  return out;
}

}  // namespace

RunScaleReading readRunScale(std::vector<AttentionFileEntry> files) {
  // Each file decoded and reduced to its tops on its own (a decoded probe set is freed before the
  // next is read by the same thread), so memory stays that of a few files at a time. Threads of
  // its own taking the next file in turn, the caller among them: on the global pool, where the
  // opening itself runs, the calling thread was found reading every file alone.
  std::vector<FileTops> per_file(files.size());
  std::atomic<std::size_t> next{0};
  // Nothing may leave a reading thread: what throws (out of memory on a huge file) becomes that
  // file's error, as a file that does not decode.
  const auto read_files = [&]() noexcept {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      try {
        per_file[i] = readFileTops(files[i]);
      } catch (const std::exception& e) {
        per_file[i].error = files[i].path + ": " + e.what();
      } catch (...) {
        per_file[i].error = files[i].path + ": could not be read";
      }
    }
  };
  const std::size_t helpers = std::min<std::size_t>(
      static_cast<std::size_t>(std::max(0, QThread::idealThreadCount() - 1)), files.size() / 8);
  {
    // Joined however this block is left (a thread that cannot be started throws).
    std::vector<std::thread> threads;
    struct JoinAll {
      std::vector<std::thread>& threads;
      ~JoinAll() {
        for (std::thread& thread : threads) thread.join();
      }
    } join_all{threads};
    try {
      for (std::size_t i = 0; i < helpers; ++i) threads.emplace_back(read_files);
    } catch (const std::system_error&) {
      // Fewer helpers than cores: the calling thread reads what they would have.
    }
    read_files();
  }
  RunScaleReading out;
  for (std::size_t i = 0; i < per_file.size(); ++i) {
    AttentionFileEntry& file = files[i];
    const FileTops& tops = per_file[i];
    if (tops.error) {
      out.warnings.push_back("attention snapshot left out: " + *tops.error);
      out.left_out << QString::fromStdString(file.path);
      continue;
    }
    for (const auto& [title, maxima] : tops.tops) out.group_max[title].raise(maxima);
    out.readable.push_back(std::move(file));
  }
  return out;
}

}  // namespace ascope
