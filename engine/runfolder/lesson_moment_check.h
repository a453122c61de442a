#pragma once
// Whether a lesson's moment (runfolder/lesson/lesson.h) can be shown from its run folder: the run
// may be gone, the step not stored, the head out of range — each said in a person's words, so
// that the lesson skips that moment and plays the others. Only reads.
#include <string>

#include "engine/runfolder/lesson/lesson_file.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// OK when the folder at `run_dir` opens as a run and, for a view of a step (attention, heads,
/// decoding, encoding, sample), the step is one it stored (-1: its last), the sample one it
/// probed there, and the group, layer, head and query row lie in that step's attention.
Status checkMomentAgainstRun(const std::string& run_dir, const LessonMoment& moment);

/// `read` with the moments whose runs cannot show them (checkMomentAgainstRun, each run
/// resolved beside the lesson file at `lesson_path`) moved to its skipped lines, by name.
LessonRead playableLesson(const std::string& lesson_path, LessonRead read);

}  // namespace ascope
