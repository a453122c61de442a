#pragma once
// What a download reports while it runs. Plain C++ so that a GUI can pass a lambda that posts to
// its own thread; the callback runs on the thread that called fetch().
#include <cstdint>
#include <functional>

namespace ascope {

/// Called at most ~10 times a second while bytes arrive, and once more when the transfer ends.
/// `bytes_done` counts what is on disk, a resumed part included; `bytes_total` is 0 when unknown.
using ProgressCallback =
    std::function<void(std::int64_t bytes_done, std::int64_t bytes_total, double bytes_per_s)>;

/// The steps of DatasetDownloader::fetch(), announced as each one starts.
enum class FetchStage { kDownloading, kVerifying, kExtracting };

using StageCallback = std::function<void(FetchStage stage)>;

}  // namespace ascope
