#pragma once
// A lesson's file (lesson.h), format 1:
//
//   {"format": 1, "title": "…", "moments": [{"run": "imdb_laptop", "step": 400,
//     "view": "attention", "sample": 2, "group": "encoder", "layer": 0, "head": 1,
//     "query": 3, "question": "What does 'it' look at?", "hidden": true}, …]}
//
// Hand-edited files are expected: a moment with a bad field is skipped with a message naming the
// moment and the field, the others open. Only a file that is no lesson at all is an error.
// Reading never writes anything; writing replaces the file atomically.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/runfolder/lesson/lesson.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

inline constexpr int kLessonFormat = 1;
/// A lesson is an hour of moments; more is not a file we wrote.
inline constexpr std::size_t kMaxLessonMoments = 500;

struct LessonRead {
  Lesson lesson;
  /// One line per moment left out: "lesson.json: moment 3 ("What does…"): "layer" must be …".
  std::vector<std::string> skipped;
  /// Each kept moment's place in the file (from 0): a later check that leaves one out names it
  /// as the file numbers it, not by its place among the moments kept so far.
  std::vector<std::size_t> positions;

  /// lessonMomentName of kept moment `index`, numbered as in the file.
  std::string momentName(std::size_t index) const;
};

/// The lesson in `path`. Errors (the file missing, over 4 MB, not JSON, not an object, another
/// format, no "moments" list, more than kMaxLessonMoments) name the file.
Expected<LessonRead> readLesson(const std::string& path);

/// "moment 3" and, when it has one, the start of its `question` in quotes: what a lecturer finds
/// a moment by in a message.
std::string lessonMomentName(std::size_t index, const std::string& question);

/// `moment`'s run folder: its `run` resolved against the folder of the lesson file at
/// `lesson_path`.
std::string lessonRunPath(const std::string& lesson_path, const LessonMoment& moment);

/// Writes `lesson` to `path` atomically. More than kMaxLessonMoments moments, or one that would
/// not read back (an empty run, an unknown view), are refused, the file left as it was.
Status writeLesson(const std::string& path, const Lesson& lesson);

}  // namespace ascope
