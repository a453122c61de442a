#include "engine/handout/handout_lesson_from_runs.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <system_error>

#include "engine/analysis/attention_group_shape.h"
#include "engine/core/printable_text.h"
#include "engine/handout/handout_payload_fills.h"
#include "engine/runfolder/lesson/lesson_file.h"
#include "engine/runfolder/lesson_moment_check.h"
#include "engine/runfolder/run_folder.h"
#include "engine/vocabulary/task_descriptor.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

bool showsAHead(const std::string& view) {
  return view == "attention" || view == "heads";
}

/// The folder's name, also when the path ends in a separator.
std::string folderName(const std::string& dir) {
  fs::path path = fs::path(dir).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();
  return path.filename().string();
}

/// The moment's run named as the page names it: its folder, its task; refused when the readers
/// refuse its settings.
Status nameRun(const std::string& run_dir, const std::string& handout_run,
               const HandoutLessonOptions& options, const TaskDescriptor*& task,
               HandoutLessonMoment& out) {
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return Error{folder.error()};
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return Error{config.error()};
  if (options.check_settings) {
    if (Status s = options.check_settings(*config, folder->configPath()); !s.ok()) return s;
  }
  task = options.task_of ? options.task_of(config->task) : nullptr;
  out.run_name = folderName(run_dir);
  out.task = config->task;
  out.task_title = task && !task->title.empty() ? task->title : config->task;
  std::error_code ec;
  out.this_run = fs::equivalent(run_dir, handout_run, ec);
  return {};
}

/// The moment's group in `snapshot` (momentGroupIn), whole enough to index.
Expected<const AttentionGroup*> groupOf(const AttentionSnapshot& snapshot, const LessonMoment& m) {
  Expected<int> index = momentGroupIn(snapshot, m, true);
  if (!index.ok()) return Error{index.error()};
  const AttentionGroup& group = snapshot.groups[static_cast<std::size_t>(*index)];
  if (Status shape = checkAttentionGroupShape(group); !shape.ok()) return Error{shape.error()};
  return &group;
}

/// The moment's head of `group` for one input; a causal head's future cells become masked.
HandoutLessonInput inputOf(const AttentionGroup& group, const LessonMoment& m, std::string name,
                           std::string text) {
  const AttentionMap& map = group.map(m.layer, m.head);
  HandoutLessonInput in;
  in.name = std::move(name);
  in.text = std::move(text);
  in.rows = map.rows;
  in.cols = map.cols;
  // Labels only where they match the map (the page numbers the cells otherwise), as the frames.
  if (static_cast<int>(group.row_labels.size()) == map.rows) in.row_labels = group.row_labels;
  if (static_cast<int>(group.col_labels.size()) == map.cols) in.col_labels = group.col_labels;
  in.weights = map.values;
  if (group.causal) {
    for (int r = 0; r < map.rows; ++r) {
      for (int c = r + 1; c < map.cols; ++c) {
        in.weights[static_cast<std::size_t>(r) * map.cols + c] = std::nanf("");
      }
    }
  }
  return in;
}

void nameHead(const AttentionGroup& group, const TaskDescriptor* task, const LessonMoment& m,
              HandoutLessonMoment& out) {
  const HandoutGroup info = handoutGroupOf(group, task);
  out.group_title = info.title;
  out.query_title = info.query_title;
  out.key_title = info.key_title;
  out.causal = info.causal;
  out.layer = m.layer;
  out.head = m.head;
  out.query = m.query;
}

/// A typed input (and its pair's) as the run's model attends to it.
Status readTypedHead(const std::string& run_dir, const LessonMoment& m, const TaskDescriptor* task,
                     const AskTypedInput& ask, HandoutLessonMoment& out) {
  if (!ask) return Error{"its typed input needs the run's model, which is not asked here"};
  std::vector<std::string> texts{m.text};
  if (!m.pair_text.empty()) texts.push_back(m.pair_text);
  for (const std::string& text : texts) {
    Expected<AttentionSnapshot> answer = ask(run_dir, text);
    if (!answer.ok())
      return Error{"the model could not read \"" + printableText(text, 40) +
                   "\": " + answer.error()};
    Expected<const AttentionGroup*> group = groupOf(*answer, m);
    if (!group.ok()) return Error{group.error()};
    if (out.inputs.empty()) nameHead(**group, task, m, out);
    out.step = answer->step;
    out.inputs.push_back(inputOf(**group, m, "“" + printableText(text, 60) + "”", text));
  }
  return {};
}

/// The moment's sample at its step, as the run stored it.
Status readStoredMoment(const std::string& run_dir, const LessonMoment& m,
                        const TaskDescriptor* task, HandoutLessonMoment& out) {
  Expected<MomentInRun> found = findMomentInRun(run_dir, m);
  if (!found.ok()) return Error{found.error()};
  if (found->snapshot < 0) return {};  // a view of no step: the curves
  const AttentionSnapshot& snapshot =
      found->probes.samples[static_cast<std::size_t>(found->snapshot)];
  out.step = found->probes.step;
  out.sample = snapshot.sample_index;
  if (!showsAHead(m.view)) return {};
  Expected<const AttentionGroup*> group = groupOf(snapshot, m);
  if (!group.ok()) return Error{group.error()};
  nameHead(**group, task, m, out);
  HandoutLessonInput in = inputOf(**group, m, "sample #" + std::to_string(snapshot.sample_index),
                                  snapshot.sample ? snapshot.sample->input : std::string());
  // The probe image of an image run, as the frames carry it (its payload's own fill).
  HandoutProbe probe;
  for (const HandoutPayloadFill& fill : handoutPayloadFills()) {
    if (const Payload* payload = snapshot.payloads.findKind(fill.kind.c_str())) {
      fill.fill(probe, *payload);
    }
  }
  in.image = std::move(probe.image);
  out.inputs.push_back(std::move(in));
  return {};
}

Expected<HandoutLessonMoment> readMoment(const std::string& lesson_path, const LessonMoment& m,
                                         const std::string& handout_run,
                                         const HandoutLessonOptions& options) {
  const std::string run_dir = lessonRunPath(lesson_path, m);
  HandoutLessonMoment out;
  out.question = m.question;
  out.view = m.view;
  out.hidden = m.hidden;
  const TaskDescriptor* task = nullptr;
  if (Status s = nameRun(run_dir, handout_run, options, task, out); !s.ok()) {
    return Error{s.error()};
  }
  const bool typed = showsAHead(m.view) && !m.text.empty();
  const Status read = typed ? readTypedHead(run_dir, m, task, options.ask, out)
                            : readStoredMoment(run_dir, m, task, out);
  if (!read.ok()) return Error{read.error()};
  return out;
}

}  // namespace

HandoutLessonRead readHandoutLesson(const std::string& lesson_path, const LessonRead& playable,
                                    const std::string& run_dir,
                                    const HandoutLessonOptions& options) {
  const Lesson& lesson = playable.lesson;
  HandoutLessonRead read;
  read.lesson.title = lesson.title;
  read.lesson.sources.push_back({lesson_path, "the lesson this handout carries"});
  std::set<std::string> runs;
  for (std::size_t i = 0; i < lesson.moments.size(); ++i) {
    const LessonMoment& m = lesson.moments[i];
    const std::string moment_run = lessonRunPath(lesson_path, m);
    if (runs.insert(moment_run).second) {
      read.lesson.sources.push_back({moment_run, "a run folder this handout's lesson shows"});
    }
    Expected<HandoutLessonMoment> moment = readMoment(lesson_path, m, run_dir, options);
    if (moment.ok()) {
      read.lesson.moments.push_back(std::move(*moment));
    } else {
      read.skipped.push_back(lesson_path + ": " + playable.momentName(i) + ": " + moment.error() +
                             "; skipped");
    }
  }
  return read;
}

}  // namespace ascope
