#include "engine/handout/handout_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "engine/core/output_file.h"
#include "engine/handout/handout_budget.h"
#include "engine/handout/handout_data_from_run.h"
#include "engine/handout/handout_packer.h"
#include "engine/handout/handout_page.h"

namespace ascope {
namespace {

/// Room kept for what the page adds once a selection is made (the sentences of what was left
/// out, the kept probe list).
constexpr std::size_t kFixedMargin = 4096;
/// Attempts at fitting before giving up: the estimate is within a few kB, so one retry is usual.
constexpr int kFitAttempts = 6;

/// The largest weight the window's Run scale would reach for the group: masked cells and the
/// first row of a causal map (one key, always 1) left out.
void raiseRunMax(const HandoutAttention& a, HandoutGroup& group) {
  const std::size_t map = static_cast<std::size_t>(a.rows) * a.cols;
  float top = static_cast<float>(group.run_max);
  for (int m = 0; m < a.layers * a.heads; ++m) {
    const float* values = a.weights.data() + static_cast<std::size_t>(m) * map;
    const int first_row = group.causal && a.rows > 1 ? 1 : 0;
    for (int r = first_row; r < a.rows; ++r) {
      const int end = group.causal ? std::min(a.cols, r + 1) : a.cols;
      for (int c = 0; c < end; ++c) {
        const float v = values[static_cast<std::size_t>(r) * a.cols + c];
        if (v > top) top = v;  // NaN never is
      }
    }
  }
  group.run_max = std::isfinite(top) ? top : group.run_max;
}

std::string pageTitle(const HandoutData& data) {
  return data.run_name + " · " + data.task_title + " · AttentionScope";
}

}  // namespace

std::string megabytesText(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

Expected<std::string> buildHandout(const std::string& run_dir, const HandoutOptions& options,
                                   const HandoutProgress& progress, HandoutSummary& summary) {
  if (!std::isfinite(options.max_mb) || options.max_mb < kMinHandoutMaxMb ||
      options.max_mb > kMaxHandoutMaxMb) {
    char text[160];
    std::snprintf(text, sizeof text, "the size limit %g MB is not between %g and %g MB",
                  options.max_mb, kMinHandoutMaxMb, kMaxHandoutMaxMb);
    return Error{text};
  }
  if (!options.theme.empty() && options.theme != "light" && options.theme != "dark" &&
      options.theme != "contrast") {
    return Error{"the theme \"" + options.theme + "\" is not light, dark or contrast"};
  }
  const auto max_bytes = static_cast<std::size_t>(options.max_mb * 1e6);
  const TaskDescriptor* task = nullptr;
  Expected<HandoutData> read =
      readHandoutData(run_dir, options.task_of, options.check_settings, task);
  if (!read.ok()) return Error{read.error()};
  HandoutData& data = *read;
  const auto report = [&](int done, int total) { return !progress || progress(done, total); };

  // Pass 1: measure every snapshot and find the run's colour scale.
  const int stored = static_cast<int>(data.frames.size());
  if (!report(0, 2 * stored + 1)) return Error{kHandoutCancelled};
  HandoutPacker measuring;
  HandoutCosts costs;
  std::vector<HandoutFrameSource> readable;
  std::vector<int> group_layers;
  for (int i = 0; i < stored; ++i) {
    const HandoutFrameSource& source = data.frames[static_cast<std::size_t>(i)];
    Expected<HandoutFrame> frame = readHandoutFrame(source, task, data.groups, data.warnings);
    if (!report(i + 1, 2 * stored + 1)) return Error{kHandoutCancelled};
    if (!frame.ok()) {
      data.warnings.push_back(frame.error());
      continue;
    }
    readable.push_back(source);
    group_layers.resize(data.groups.size(), 0);
    for (const HandoutProbe& probe : frame->probes) {
      for (const HandoutAttention& a : probe.attention) {
        raiseRunMax(a, data.groups[static_cast<std::size_t>(a.group)]);
        int& layers = group_layers[static_cast<std::size_t>(a.group)];
        layers = std::max(layers, a.layers);
      }
    }
    costs.probes = std::max(costs.probes, static_cast<int>(frame->probes.size()));
    costs.frames.push_back(measuring.measureFrame(*frame, static_cast<int>(data.groups.size())));
  }
  data.frames = readable;
  costs.group_layers = group_layers;
  for (const HandoutGroup& g : data.groups)
    costs.group_is_rollout.push_back(!g.aggregate_of.empty());
  const std::string title = pageTitle(data);
  const auto pageWithoutFrames = [&](bool lesson, bool computations) {
    HandoutPacker empty;
    if (lesson && options.lesson) empty.packLesson(*options.lesson);
    if (computations) empty.packComputations(options.computations, data.groups);
    return renderHandoutPage(title, empty.document(data, {}, everythingIn(costs), {},
                                                   options.max_mb, options.theme))
        .size();
  };
  const std::size_t bare = pageWithoutFrames(false, false);
  costs.fixed = pageWithoutFrames(true, true) + kFixedMargin;
  const std::size_t lesson_bytes = options.lesson ? pageWithoutFrames(true, false) - bare : 0;
  const std::size_t computation_bytes =
      options.computations.empty() ? 0 : pageWithoutFrames(false, true) - bare;
  std::vector<std::string> titles;
  for (const HandoutGroup& g : data.groups) titles.push_back(g.title);

  // Pass 2: pack what fits, and check the page's real size.
  std::size_t budget = max_bytes;
  for (int attempt = 0; attempt < kFitAttempts; ++attempt) {
    const HandoutSelection selection = planHandout(costs, budget);
    if (!selection.fits) {
      const double smallest_mb =
          std::ceil(static_cast<double>(selection.estimated_bytes) * 1.02 / 1e5) / 10;
      char lesson[96] = "";
      if (options.lesson) {
        std::snprintf(lesson, sizeof lesson, " and its lesson of %zu moments (%s)",
                      options.lesson->moments.size(), megabytesText(lesson_bytes).c_str());
      }
      char explained[96] = "";
      if (!options.computations.empty()) {
        std::snprintf(explained, sizeof explained, " and its %zu explained heads (%s)",
                      options.computations.size(), megabytesText(computation_bytes).c_str());
      }
      char text[480];
      std::snprintf(text, sizeof text,
                    "the smallest handout of %s (one snapshot of one probe sample, its first "
                    "attention group's first and last layers%s%s) is about %.1f MB, over the "
                    "limit of %g MB: give --max-mb %g or more",
                    data.run_name.c_str(), lesson, explained, smallest_mb, options.max_mb,
                    std::ceil(smallest_mb));
      return Error{text};
    }
    const std::vector<std::string> left_out =
        describeLeftOut(costs, selection, titles, data.probe_samples);
    const int total = stored + static_cast<int>(selection.frames.size()) + 1;
    HandoutPacker packer;
    if (options.lesson) packer.packLesson(*options.lesson);
    if (!options.computations.empty()) packer.packComputations(options.computations, data.groups);
    std::vector<nlohmann::json> frames;
    int done = stored;
    for (int f : selection.frames) {
      std::vector<HandoutGroup> groups = data.groups;  // known already: nothing new to add
      std::vector<std::string> ignored;                // said in pass 1
      Expected<HandoutFrame> frame =
          readHandoutFrame(data.frames[static_cast<std::size_t>(f)], task, groups, ignored);
      if (!report(++done, total)) return Error{kHandoutCancelled};
      if (!frame.ok()) {  // removed meanwhile (a live run thins its snapshots)
        data.warnings.push_back(frame.error());
        continue;
      }
      frames.push_back(packer.packFrame(*frame, selection));
    }
    std::string page = renderHandoutPage(
        title, packer.document(data, frames, selection, left_out, options.max_mb, options.theme));
    if (page.size() <= max_bytes) {
      report(total, total);
      summary.bytes = page.size();
      summary.snapshots_stored = static_cast<int>(data.frames.size());
      summary.snapshots_kept = static_cast<int>(frames.size());
      summary.lesson_moments =
          options.lesson ? static_cast<int>(options.lesson->moments.size()) : 0;
      summary.left_out = left_out;
      summary.warnings = data.warnings;
      return page;
    }
    // The estimate was short: plan again for what it missed, and a little more.
    const std::size_t over = page.size() - max_bytes;
    if (over + max_bytes / 100 >= budget) break;
    budget -= over + max_bytes / 100;
  }
  return Error{"could not fit the handout of " + data.run_name + " under " +
               megabytesText(max_bytes) + ": give a larger --max-mb"};
}

Expected<HandoutSummary> writeHandout(const std::string& run_dir, const std::string& out_path,
                                      const HandoutOptions& options,
                                      const HandoutProgress& progress) {
  // The page never replaces a file of the run it shows, a device or a FIFO: checked before the
  // work and again when it is written (engine/core/output_file.h).
  std::vector<CommandInput> inputs = {{run_dir, "the run folder this handout shows"}};
  if (options.lesson) {
    inputs.insert(inputs.end(), options.lesson->sources.begin(), options.lesson->sources.end());
  }
  if (Status target = checkOutputFile(out_path, inputs); !target.ok()) {
    return Error{target.error()};
  }
  HandoutSummary summary;
  Expected<std::string> page = buildHandout(run_dir, options, progress, summary);
  if (!page.ok()) return Error{page.error()};
  if (Status written = writeOutputFile(out_path, *page, inputs); !written.ok()) {
    return Error{written.error()};
  }
  return summary;
}

}  // namespace ascope
