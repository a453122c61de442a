#pragma once
// Which probes the run folder keeps: the timeline needs coverage of the whole run, not every
// probe, and a folder that grows without bound fills the disk of a long run. A probe set is
// stored at every step that is a multiple of `spacing` (and always the first and the last), so
// runs of the same length store the same steps and "the same step" can be compared; when the
// attention/ folder would outgrow its budget, every other stored set (never the first or the
// newest) is deleted and the spacing doubles, so coverage stays even.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/runfolder/run_folder.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class SnapshotStore {
 public:
  /// Counts the sets already in `folder` (a resumed run) against `budget_bytes`.
  SnapshotStore(RunFolder folder, int64_t spacing_steps, std::uint64_t budget_bytes);

  /// The spacing of a run of `total_steps`: the largest that still gives kMinSnapshots sets (at
  /// most twice as many), so a laptop run's timeline and video have 100 or more frames, runs of
  /// the same length share every stored step, and each probe is paid for about a hundred times.
  static int64_t spacingFor(int64_t total_steps);
  static constexpr int64_t kMinSnapshots = 100;

  /// Whether a probe at `step` is stored (`last`: the run's final probe always is).
  bool due(int64_t step, bool last) const;
  /// Writes `probes` and thins older sets if the folder is now over budget. A set that alone is
  /// larger than the budget is still written (the newest is always kept).
  Status store(const ProbeSet& probes);

  std::uint64_t bytes() const { return bytes_; }
  int64_t spacing() const { return spacing_; }
  std::size_t count() const { return stored_.size(); }
  /// The newest stored step; -1 before the first.
  int64_t lastStep() const { return last_step_; }

 private:
  struct Stored {
    int64_t step;
    std::uint64_t bytes;
  };
  /// Deletes every other stored set between the first and the newest; doubles the spacing.
  void thin();

  RunFolder folder_;
  int64_t spacing_;
  std::uint64_t budget_;
  std::uint64_t bytes_ = 0;
  std::vector<Stored> stored_;  ///< by step
  int64_t last_step_ = -1;
};

}  // namespace ascope
