#pragma once
// A lesson's moments read from their runs into the handout's own terms (handout_lesson.h): for a
// moment of a head, that one head's weights for its probe sample at its step, from the run's
// stored snapshot, with the tokens (or patches, and the probe image) it was drawn over; for a
// typed input, the attention the run's model gives it, which the caller asks (this library links
// no LibTorch). A lesson may span runs: each moment carries its own run's name and task. Reads
// only; a moment that cannot be shown is left out and said by name, the others are kept.
#include <functional>
#include <string>
#include <vector>

#include "engine/handout/handout_data_from_run.h"
#include "engine/handout/handout_lesson.h"
#include "engine/runfolder/lesson/lesson_file.h"
#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// The attention the model of the run at `run_dir` gives `text`: its groups labelled with the
/// text's own tokens, its `step` the checkpoint's.
using AskTypedInput =
    std::function<Expected<AttentionSnapshot>(const std::string& run_dir, const std::string& text)>;

struct HandoutLessonOptions {
  /// The task of an id (as HandoutOptions::task_of): it names each run's task and groups.
  std::function<const TaskDescriptor*(const std::string& task_id)> task_of;
  /// As HandoutOptions::check_settings: a run whose settings the readers refuse shows no moment.
  RunSettingsCheck check_settings;
  /// Unset: moments of a typed input are left out (they need the model).
  AskTypedInput ask;
};

struct HandoutLessonRead {
  HandoutLesson lesson;
  /// One line per moment left out: "lesson.json: moment 2 ("…"): … ; skipped".
  std::vector<std::string> skipped;
};

/// The moments of `playable`, read from `lesson_path` and checked against their runs
/// (playableLesson), as the handout of the run at `run_dir` carries them, each run resolved
/// beside the lesson file; a moment left out is named as the file numbers it.
HandoutLessonRead readHandoutLesson(const std::string& lesson_path, const LessonRead& playable,
                                    const std::string& run_dir,
                                    const HandoutLessonOptions& options);

}  // namespace ascope
