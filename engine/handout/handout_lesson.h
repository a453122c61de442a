#pragma once
// A lesson (engine/runfolder/lesson) as the handout carries it: each moment with what the page
// needs to replay it offline — its question, whether the class guesses first, its run named by
// task and folder, and for a moment of a head the weights of that one head for its input (two
// inputs for a minimal pair). Plain data: handout_lesson_from_runs.h fills it, the packer packs
// it, and neither the page nor the packer opens a run.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/output_file.h"
#include "engine/handout/handout_data.h"

namespace ascope {

/// One input of a moment's head: a probe sample at the moment's step, or a text typed for it.
struct HandoutLessonInput {
  std::string name;    ///< for the page: "sample #12", "“The trophy did not fit…”"
  std::string text;    ///< what the model read ("" for an image)
  HandoutImage image;  ///< the probe image of an image run (invalid otherwise)
  int rows = 0;
  int cols = 0;
  std::vector<std::string> row_labels;  ///< empty where they do not match the map
  std::vector<std::string> col_labels;
  std::vector<float> weights;  ///< rows × cols, row-major; NaN masked (a causal head's future too)
};

struct HandoutLessonMoment {
  std::string question;
  std::string view;  ///< one of kLessonViews
  bool hidden = false;
  std::string run_name;  ///< the run folder's name
  std::string task;      ///< its task's id
  std::string task_title;
  bool this_run = false;   ///< the handout's own run: the page can go to the moment's step
  std::int64_t step = -1;  ///< the stored step shown (a typed input: its checkpoint's); -1: none
  int sample = -1;         ///< the probe sample shown; -1: none (typed, or a view without one)
  // The head of a moment of attention ("attention", "heads"); `inputs` is empty for other views.
  std::string group_title;
  std::string query_title = "query";
  std::string key_title = "key";
  bool causal = false;
  int layer = 0;
  int head = 0;
  int query = -1;  ///< the one query row asked about; -1: the whole head
  std::vector<HandoutLessonInput> inputs;
};

struct HandoutLesson {
  std::string title;
  std::vector<HandoutLessonMoment> moments;
  /// The lesson file and every run folder its moments read: the page is never written over one.
  std::vector<CommandInput> sources;
};

}  // namespace ascope
