#pragma once
// A run folder written by hand for the handout tests: config.json, metrics.csv, a bookmark and
// `snapshots` probe sets of `probes` samples, each with an "encoder" group (3 layers × 2 heads, 6
// tokens), a causal "decoder self" group and a "cross" group (2 layers × 2 heads), whose weights
// differ by step, sample, layer and head, so every one of them can be checked after packing.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/attention_snapshot.h"

namespace ascope::testing {

struct SyntheticRunOptions {
  int snapshots = 12;
  int probes = 3;
  int tokens = 6;
  /// Labels of the encoder's tokens (defaults "w0", "w1", …).
  std::vector<std::string> labels;
};

/// The probe set the synthetic run stores at snapshot `index` (step 10 · index).
ProbeSet syntheticProbeSet(int index, const SyntheticRunOptions& options);

/// Writes the run into `dir` (created); returns the steps of its snapshots.
std::vector<std::int64_t> writeSyntheticRun(const std::string& dir,
                                            const SyntheticRunOptions& options = {});

/// A folder under the temp directory, removed when the object goes.
class TempFolder {
 public:
  TempFolder();
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::string path(const std::string& relative = "") const;

 private:
  std::string root_;
};

/// The whole of the file at `path` ("" when it cannot be read).
std::string fileText(const std::string& path);

/// The JSON document a handout page carries (the text of its #handout-data element).
std::string handoutDataOf(const std::string& page);

}  // namespace ascope::testing
