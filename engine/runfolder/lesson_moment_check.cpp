#include "engine/runfolder/lesson_moment_check.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "engine/core/printable_text.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"

namespace ascope {
namespace {

bool showsAStep(const std::string& view) {
  return view != "curves";
}

/// The index of the moment's sample among `probes`: its own, else (no sample asked, or a typed
/// input, which is asked of the run's model) the first; -1 when it was not probed.
int snapshotOf(const ProbeSet& probes, const LessonMoment& m) {
  if (probes.samples.empty()) return -1;
  if (m.sample < 0) return 0;
  for (std::size_t i = 0; i < probes.samples.size(); ++i) {
    if (probes.samples[i].sample_index == m.sample) return static_cast<int>(i);
  }
  return -1;
}

std::string probedList(const ProbeSet& probes) {
  std::string list;
  for (const AttentionSnapshot& s : probes.samples) {
    list += (list.empty() ? "" : ", ") + std::to_string(s.sample_index);
  }
  return list;
}

}  // namespace

Expected<int> momentGroupIn(const AttentionSnapshot& snapshot, const LessonMoment& m,
                            bool own_input) {
  if (snapshot.groups.empty()) return Error{"the step holds no attention"};
  auto found = snapshot.groups.begin();
  if (!m.group.empty()) {
    found = std::find_if(snapshot.groups.begin(), snapshot.groups.end(),
                         [&](const AttentionGroup& g) { return g.name == m.group; });
    if (found == snapshot.groups.end()) {
      std::string names;
      for (const AttentionGroup& g : snapshot.groups) names += (names.empty() ? "" : ", ") + g.name;
      return Error{"the run has no attention group \"" + printableText(m.group, 40) +
                   "\" (it has " + names + ")"};
    }
  }
  const AttentionGroup* group = &*found;
  if (m.layer >= group->layers) {
    return Error{"layer " + std::to_string(m.layer) + " is out of range: " + group->name + " has " +
                 std::to_string(group->layers) + " layers (0 to " +
                 std::to_string(group->layers - 1) + ")"};
  }
  if (m.head >= group->heads) {
    return Error{"head " + std::to_string(m.head) + " is out of range: " + group->name + " has " +
                 std::to_string(group->heads) + " heads (0 to " + std::to_string(group->heads - 1) +
                 ")"};
  }
  const int rows = group->maps.empty() ? 0 : group->map(m.layer, m.head).rows;
  // A typed input has its own length, known only when it is asked.
  if (m.query >= 0 && own_input && m.query >= rows) {
    return Error{"query row " + std::to_string(m.query) + " is out of range: the sample has " +
                 std::to_string(rows) + " tokens there"};
  }
  return static_cast<int>(found - snapshot.groups.begin());
}

Expected<MomentInRun> findMomentInRun(const std::string& run_dir, const LessonMoment& m) {
  std::error_code ec;
  if (!std::filesystem::is_directory(run_dir, ec)) {
    return Error{"the run " + printableText(run_dir) + " is not there"};
  }
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return Error{folder.error()};
  MomentInRun found;
  if (!showsAStep(m.view)) return found;
  const std::vector<std::string> files = folder->attentionFiles();
  if (files.empty()) return Error{"the run " + printableText(run_dir) + " stored no step"};
  std::string file = files.back();
  if (m.step >= 0) {
    file = folder->attentionPath(m.step);
    if (std::find(files.begin(), files.end(), file) == files.end()) {
      return Error{"step " + std::to_string(m.step) + " was not stored in " +
                   printableText(run_dir) + " (" + std::to_string(files.size()) +
                   " steps are; the timeline keeps a step every so often, not every one)"};
    }
  }
  Expected<ProbeSet> probes = readProbeSet(file);
  if (!probes.ok()) return Error{probes.error()};
  found.probes = std::move(*probes);
  found.snapshot = snapshotOf(found.probes, m);
  if (found.snapshot < 0) {
    return Error{"sample " + std::to_string(m.sample) + " was not probed at that step (the run " +
                 "probed " + probedList(found.probes) + ")"};
  }
  if (m.view == "encoding" || m.view == "sample") return found;
  Expected<int> group = momentGroupIn(
      found.probes.samples[static_cast<std::size_t>(found.snapshot)], m, m.text.empty());
  if (!group.ok()) return Error{group.error()};
  found.group = *group;
  return found;
}

Status checkMomentAgainstRun(const std::string& run_dir, const LessonMoment& m) {
  Expected<MomentInRun> found = findMomentInRun(run_dir, m);
  if (!found.ok()) return Error{found.error()};
  return {};
}

LessonRead playableLesson(const std::string& lesson_path, LessonRead read) {
  std::vector<LessonMoment> playable;
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < read.lesson.moments.size(); ++i) {
    const LessonMoment& m = read.lesson.moments[i];
    const Status s = checkMomentAgainstRun(lessonRunPath(lesson_path, m), m);
    if (s.ok()) {
      playable.push_back(m);
      positions.push_back(i < read.positions.size() ? read.positions[i] : i);
      continue;
    }
    read.skipped.push_back(lesson_path + ": " + read.momentName(i) + ": " + s.error() +
                           "; skipped");
  }
  read.lesson.moments = std::move(playable);
  read.positions = std::move(positions);
  return read;
}

}  // namespace ascope
