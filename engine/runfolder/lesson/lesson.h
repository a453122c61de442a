#pragma once
// A lesson: an ordered list of moments a lecturer walks the class through — a run at a step, a
// view, a sample or a typed input (or a minimal pair of them), a layer and a head, a question,
// and whether the pattern is hidden until the class has guessed. Saved as a small JSON file
// beside the runs it names (lesson_file.h); plain data.
#include <cstdint>
#include <string>
#include <vector>

namespace ascope {

struct LessonMoment {
  /// The run folder, as written: relative to the lesson file's folder, or absolute.
  std::string run;
  std::int64_t step = -1;          ///< a stored step of the run; -1: its last
  std::string view = "attention";  ///< one of kLessonViews
  int sample = -1;                 ///< a probe sample (validation index); -1: `text`, or the first
  std::string text;                ///< a typed input instead of a sample
  std::string pair_text;           ///< a minimal pair's second input; "" for none
  std::string group;               ///< the attention group ("cross"); "": the view's first
  int layer = 0;
  int head = 0;
  int query = -1;  ///< the one query row asked about; -1: the whole head
  std::string question;
  bool hidden = false;  ///< hidden until Reveal: the class predicts first

  bool operator==(const LessonMoment& o) const {
    return run == o.run && step == o.step && view == o.view && sample == o.sample &&
           text == o.text && pair_text == o.pair_text && group == o.group && layer == o.layer &&
           head == o.head && query == o.query && question == o.question && hidden == o.hidden;
  }
};

/// The views a moment may show.
inline const std::vector<std::string> kLessonViews{"attention", "heads",  "decoding",
                                                   "encoding",  "curves", "sample"};

struct Lesson {
  std::string title;
  std::vector<LessonMoment> moments;
};

}  // namespace ascope
