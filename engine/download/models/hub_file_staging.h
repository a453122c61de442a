#pragma once
// One file of a hub model into the staging folder, checked against what the hub's HEAD answer
// said about it (hub_file_metadata.h).
#include <atomic>
#include <cstdint>
#include <string>

#include "engine/download/download_progress.h"
#include "engine/download/models/hub_file_metadata.h"
#include "engine/download/transfer_limits.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct HubFileTransfer {
  /// The file's name in the model, e.g. "model.safetensors".
  std::string name;
  HubFileMetadata metadata;
  /// Sent as a bearer token to the endpoint's host only; empty: none.
  std::string token;
  TransferLimits limits;
  /// The most the file may be when the hub declared no size (HubFileChoice::max_bytes); with a
  /// declared size, no byte past it is written.
  std::int64_t max_bytes = -1;
};

/// Makes `<staging_dir>/<name>` hold the file. An LFS file (one with a SHA-256) that an earlier run
/// staged is kept when it still matches; otherwise it is downloaded into `<name>.<hash>.part`,
/// resuming what is there. A file without a SHA-256 is always downloaded afresh, into
/// `<name>.part`. Then the size and any SHA-256 are checked and the file renamed. A file that fails
/// a check is deleted, and the error names it with the expected and actual values.
Status stageHubFile(const HubFileTransfer& transfer, const std::string& staging_dir,
                    const ProgressCallback& progress, const std::atomic<bool>* cancel);

}  // namespace ascope
