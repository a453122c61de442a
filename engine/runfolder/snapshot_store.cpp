#include "engine/runfolder/snapshot_store.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "engine/runfolder/run_reader.h"

namespace ascope {

namespace fs = std::filesystem;

SnapshotStore::SnapshotStore(RunFolder folder, int64_t spacing_steps, std::uint64_t budget_bytes)
    : folder_(std::move(folder)),
      spacing_(std::max<int64_t>(1, spacing_steps)),
      budget_(budget_bytes) {
  for (const AttentionFileEntry& entry : listAttentionFiles(folder_.path())) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(entry.path, ec);
    stored_.push_back({entry.step, ec ? 0 : static_cast<std::uint64_t>(size)});
    bytes_ += stored_.back().bytes;
  }
  if (!stored_.empty()) last_step_ = stored_.back().step;
}

int64_t SnapshotStore::spacingFor(int64_t total_steps) {
  return std::max<int64_t>(1, total_steps / kMinSnapshots);
}

bool SnapshotStore::due(int64_t step, bool last) const {
  return last || last_step_ < 0 || (step % spacing_ == 0 && step != last_step_);
}

Status SnapshotStore::store(const ProbeSet& probes) {
  Expected<std::uint64_t> written = folder_.writeProbeSet(probes);
  if (!written.ok()) return Error{written.error()};
  // A resumed run probes its first step again: the file was replaced, not added.
  stored_.erase(std::remove_if(stored_.begin(), stored_.end(),
                               [&](const Stored& s) {
                                 if (s.step != probes.step) return false;
                                 bytes_ -= s.bytes;
                                 return true;
                               }),
                stored_.end());
  stored_.push_back({probes.step, *written});
  bytes_ += *written;
  last_step_ = probes.step;
  while (bytes_ > budget_ && stored_.size() > 2) thin();
  return {};
}

void SnapshotStore::thin() {
  std::vector<Stored> kept;
  for (std::size_t i = 0; i < stored_.size(); ++i) {
    const bool keep = i == 0 || i + 1 == stored_.size() || i % 2 == 0;
    if (keep) {
      kept.push_back(stored_[i]);
      continue;
    }
    std::error_code ec;
    fs::remove(folder_.attentionPath(stored_[i].step), ec);
    if (!ec)
      bytes_ -= stored_[i].bytes;
    else
      kept.push_back(stored_[i]);  // still there: it still counts
  }
  stored_ = std::move(kept);
  spacing_ *= 2;
}

}  // namespace ascope
