#pragma once
// Whether a lesson's moment (runfolder/lesson/lesson.h) can be shown from its run folder: the run
// may be gone, the step not stored, the head out of range — each said in a person's words, so
// that the lesson skips that moment and plays the others. Only reads.
#include <string>

#include "engine/runfolder/lesson/lesson_file.h"
#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// What of its run a moment shows: the probe set of its step and, within it, the snapshot of its
/// sample and the attention group it names. Views that show no step (curves) have none of them.
struct MomentInRun {
  ProbeSet probes;
  int snapshot = -1;  ///< into probes.samples; -1: the view shows no step
  int group = -1;     ///< into that snapshot's groups; -1: the view shows no attention
};

/// The part of the run at `run_dir` that `moment` shows, found as checkMomentAgainstRun checks it
/// (its errors are that function's). A typed input's own attention is the caller's to ask.
Expected<MomentInRun> findMomentInRun(const std::string& run_dir, const LessonMoment& moment);

/// The index of the moment's attention group in `snapshot` ("": its first), with its layer and
/// head inside it and, when `snapshot` holds the moment's own input (not a stand-in for a typed
/// input, whose length is its own), its query row too. Errors as checkMomentAgainstRun's.
Expected<int> momentGroupIn(const AttentionSnapshot& snapshot, const LessonMoment& moment,
                            bool own_input);

/// OK when the folder at `run_dir` opens as a run and, for a view of a step (attention, heads,
/// decoding, encoding, sample), the step is one it stored (-1: its last), the sample one it
/// probed there, and the group, layer, head and query row lie in that step's attention.
Status checkMomentAgainstRun(const std::string& run_dir, const LessonMoment& moment);

/// `read` with the moments whose runs cannot show them (checkMomentAgainstRun, each run
/// resolved beside the lesson file at `lesson_path`) moved to its skipped lines, by name.
LessonRead playableLesson(const std::string& lesson_path, LessonRead read);

}  // namespace ascope
