#pragma once
// `attentionscope-cli handout` and the window's File → Export for students…: a run folder as one
// self-contained HTML page (engine/handout/handout_page.h) under a size limit, written
// atomically. Reads the run's stored snapshots twice, one at a time (once to measure them and
// find the run's colour scale, once to pack what fits), so a run of gigabytes needs little memory.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/handout/handout_computation.h"
#include "engine/handout/handout_data_from_run.h"
#include "engine/handout/handout_lesson.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct TaskDescriptor;
using TaskLookup = std::function<const TaskDescriptor*(const std::string& task_id)>;

/// The default and the bounds of --max-mb (1 MB = 1,000,000 bytes).
inline constexpr double kDefaultHandoutMaxMb = 20;
inline constexpr double kMinHandoutMaxMb = 0.05;
inline constexpr double kMaxHandoutMaxMb = 2000;
/// The error of a handout whose progress callback asked it to stop.
inline constexpr char kHandoutCancelled[] = "cancelled";

struct HandoutOptions {
  double max_mb = kDefaultHandoutMaxMb;
  /// The task of an id (TaskRegistry::find, which is not linked here): it names the run's
  /// attention groups and its accuracy. Unset, or null for the run's task: generic names.
  TaskLookup task_of;
  /// checkRunSettings (not linked here either): set, a run whose config.json infer, evaluate and
  /// the window refuse gets no page. Both front ends set it.
  RunSettingsCheck check_settings;
  /// The page's colours until a reader picks others: "light", "dark" or "contrast" (the window's
  /// high-contrast mode); "" follows the reader's system.
  std::string theme;
  /// A lesson the page replays first (handout_lesson_from_runs.h reads it); its size counts
  /// towards max_mb, and the page is never written over its file or one of its runs' files.
  std::optional<HandoutLesson> lesson;
  /// Heads explained as a computation (the caller computes them: handout_computation.h); their
  /// size counts towards max_mb, as the lesson's does.
  std::vector<HandoutComputation> computations;
};

struct HandoutSummary {
  std::uint64_t bytes = 0;
  int snapshots_stored = 0;  ///< readable snapshots in the run folder
  int snapshots_kept = 0;
  int lesson_moments = 0;             ///< of HandoutOptions::lesson, all of which the page carries
  std::vector<std::string> left_out;  ///< what the page says it left out to fit
  std::vector<std::string> warnings;  ///< what could not be read (the page has the rest)
};

/// Called as the work goes on (done of total; the total may change once, after the first pass);
/// returning false stops it: the result is then the error kHandoutCancelled.
using HandoutProgress = std::function<bool(int done, int total)>;

/// The page for `run_dir` within options.max_mb. Errors: not a run folder, max_mb out of bounds,
/// no snapshot small enough to fit ("the smallest handout of this run is 31.5 MB: give --max-mb
/// 32 or more").
Expected<std::string> buildHandout(const std::string& run_dir, const HandoutOptions& options,
                                   const HandoutProgress& progress, HandoutSummary& summary);

/// buildHandout, written to `out_path` atomically (the page appears whole or not at all).
Expected<HandoutSummary> writeHandout(const std::string& run_dir, const std::string& out_path,
                                      const HandoutOptions& options,
                                      const HandoutProgress& progress = {});

/// "12.3 MB" (1 MB = 10^6 bytes), as the command and the window report sizes.
std::string megabytesText(std::uint64_t bytes);

}  // namespace ascope
