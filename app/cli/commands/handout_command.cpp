// `attentionscope-cli handout`: a run as one offline HTML page for students (engine/handout).
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/explain_choice.h"
#include "app/cli/handout_explanations.h"
#include "app/cli/subcommands.h"
#include "app/cli/training/stop_signals.h"
#include "engine/core/output_file.h"
#include "engine/handout/handout_lesson_from_runs.h"
#include "engine/handout/handout_writer.h"
#include "engine/inference/checkpoint_inference.h"
#include "engine/runfolder/lesson/lesson_file.h"
#include "engine/runfolder/lesson_moment_check.h"
#include "engine/runfolder/run_reader.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope::cli {
namespace {

struct HandoutCommandOptions {
  std::string run;
  std::string out;
  double max_mb = kDefaultHandoutMaxMb;
  std::string theme;
  std::string lesson;
  std::vector<std::string> explain;
};

/// The attention the run's model gives a lesson's typed input: its newest checkpoint, the one a
/// moment of the run's last step shows, on the CPU (a handout is written once, anywhere).
Expected<AttentionSnapshot> askTypedInput(const std::string& run_dir, const std::string& text) {
  if (Status readable = checkRunFilesReadable(run_dir); !readable.ok()) {
    return Error{readable.error()};
  }
  InferenceRequest request;
  request.run_dir = run_dir;
  request.checkpoint = CheckpointChoice::kNewest;
  request.text = text;
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  if (!answer.ok()) return Error{answer.error()};
  if (!answer->note.empty()) std::fprintf(stderr, "attentionscope-cli: %s\n", answer->note.c_str());
  return std::move(answer->attention);
}

/// The lesson at `path` as the handout of `run` carries it; each moment it leaves out is said on
/// stderr by name. Only a file that is no lesson at all is an error.
Expected<HandoutLesson> lessonOf(const std::string& path, const std::string& run,
                                 const HandoutOptions& options) {
  Expected<LessonRead> read = readLesson(path);
  if (!read.ok()) return Error{read.error()};
  const LessonRead playable = playableLesson(path, std::move(*read));
  HandoutLessonOptions lesson_options;
  lesson_options.task_of = options.task_of;
  lesson_options.check_settings = options.check_settings;
  lesson_options.ask = askTypedInput;
  HandoutLessonRead carried = readHandoutLesson(path, playable, run, lesson_options);
  for (const std::string& line : playable.skipped) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", line.c_str());
  }
  for (const std::string& line : carried.skipped) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", line.c_str());
  }
  return std::move(carried.lesson);
}

int handout(const HandoutCommandOptions& o) {
  // A target that cannot take the page is bad input, said before the run is read (exit 2).
  std::vector<CommandInput> inputs = {{o.run, "the run folder this handout shows"}};
  if (!o.lesson.empty()) inputs.push_back({o.lesson, "the lesson this handout carries"});
  if (Status target = checkOutputFile(o.out, inputs); !target.ok()) {
    return usageError("--out: " + target.error(), "handout");
  }
  HandoutOptions options;
  options.max_mb = o.max_mb;
  options.theme = o.theme;
  options.task_of = [](const std::string& id) { return TaskRegistry::instance().find(id); };
  options.check_settings = checkSettingsOfKnownTask;
  if (!o.lesson.empty()) {
    Expected<HandoutLesson> lesson = lessonOf(o.lesson, o.run, options);
    if (!lesson.ok()) {
      std::fprintf(stderr, "attentionscope-cli: --lesson: %s; nothing was written\n",
                   lesson.error().c_str());
      return 1;
    }
    options.lesson = std::move(*lesson);
  }
  // The heads explained are computed before the page: a head that is not there writes nothing.
  std::vector<ExplainChoice> choices;
  for (const std::string& text : o.explain) choices.push_back(*parseExplainChoice(text));
  std::vector<std::string> notes;
  Expected<std::vector<HandoutComputation>> computations =
      explainForHandout(o.run, std::move(choices), notes);
  if (!computations.ok() && !o.explain.empty()) {
    std::fprintf(stderr, "attentionscope-cli: %s; nothing was written\n",
                 computations.error().c_str());
    return 1;
  }
  if (!computations.ok()) {
    // Unasked, the section is a bonus: a run without a checkpoint yet still gets its page.
    std::fprintf(stderr, "attentionscope-cli: warning: no Computation section: %s\n",
                 computations.error().c_str());
  } else {
    options.computations = std::move(*computations);
  }
  for (const std::string& note : notes)
    std::fprintf(stderr, "attentionscope-cli: %s\n", note.c_str());
  // A long run has hundreds of snapshots to read twice: a count on a terminal shows it works;
  // Ctrl-C stops it and writes nothing.
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const StopSignals signals;
  const auto progress = [&](int done, int total) {
    if (tty) std::fprintf(stderr, "\rwriting the handout: %d/%d", done, total);
    return signals.received() == 0;
  };
  Expected<HandoutSummary> summary = writeHandout(o.run, o.out, options, progress);
  if (tty) std::fprintf(stderr, "\n");
  if (!summary.ok()) {
    const std::string message =
        signals.received() != 0
            ? std::string("stopped by ") + signalName(signals.received()) + "; nothing was written"
            : summary.error();
    std::fprintf(stderr, "attentionscope-cli: %s\n", message.c_str());
    return 1;
  }
  for (const std::string& warning : summary->warnings) {
    std::fprintf(stderr, "attentionscope-cli: warning: %s\n", warning.c_str());
  }
  std::printf("wrote %s: %s (limit %g MB), %d of %d snapshots\n", o.out.c_str(),
              megabytesText(summary->bytes).c_str(), o.max_mb, summary->snapshots_kept,
              summary->snapshots_stored);
  if (options.lesson) {
    std::printf("  lesson: %d moments\n", summary->lesson_moments);
  }
  for (const HandoutComputation& explained : options.computations) {
    const AttentionComputation& c = explained.computation;
    std::printf("  explained: %s layer %d head %d, cell %d → %d, weights of step %lld\n",
                c.group.c_str(), c.layer, c.head, explained.query, explained.key,
                static_cast<long long>(c.step));
  }
  for (const std::string& left : summary->left_out) std::printf("  left out: %s\n", left.c_str());
  return 0;
}

}  // namespace

Subcommand addHandoutCommand(CLI::App& app) {
  auto o = std::make_shared<HandoutCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "handout", "write a run as one HTML page that students open offline in any browser");
  command->footer(
      "The page holds everything: the loss and accuracy curves, the timeline with Play, the\n"
      "attention of every probe sample (every group, layer and head), head statistics, the\n"
      "ablation table, positional encodings and the run's settings. It fetches nothing and opens\n"
      "from a USB stick or an e-mail. Within --max-mb, snapshots are thinned evenly, then probe\n"
      "samples, middle layers and groups are left out (the page says which). Works while the run\n"
      "is still training. The Computation section recomputes the --explain heads from the run's\n"
      "newest checkpoint (layer 0, head 0 of the first group when none is given).");
  command->add_option("--run", o->run, "a run folder written by 'train'")
      ->type_name("RUNDIR")
      ->required();
  command->add_option("--out", o->out, "the HTML file to write (replaced atomically)")
      ->type_name("FILE.html")
      ->required();
  command
      ->add_option("--max-mb", o->max_mb,
                   "size limit in MB of 1,000,000 bytes (default " +
                       std::to_string(static_cast<int>(kDefaultHandoutMaxMb)) + ")")
      ->type_name("N")
      ->check(realIn(kMinHandoutMaxMb, kMaxHandoutMaxMb));
  command
      ->add_option("--lesson", o->lesson,
                   "a lesson (its moments: a run, a step, a head, a question) to replay first on "
                   "the page, one moment at a time, a hidden head revealed once the reader has "
                   "guessed; moments that cannot be shown are named and left out")
      ->type_name("L.json");
  command
      ->add_option("--explain", o->explain,
                   "a head to show as a computation with the model's own numbers (the layer's "
                   "input, Q, K, V, QKᵀ, the scale, the mask, the softmax, weights·V, the heads "
                   "joined, the output projection) for the first probe sample with the run's "
                   "newest checkpoint, and one cell of it taken apart (the strongest unless "
                   "QUERY:KEY is given); repeatable; default 0:0, the first group's layer 0 head "
                   "0. GROUP as the run names it (encoder, decoder self, cross) or as the page "
                   "titles it; left out: the first group")
      ->type_name("GROUP:LAYER:HEAD[:QUERY:KEY]")
      ->check(kExplainChoice);
  command
      ->add_option("--theme", o->theme,
                   "the page's colours until a reader picks others (default: the reader's "
                   "system's)")
      ->type_name("light|dark|contrast")
      ->check(CLI::IsMember({"light", "dark", "contrast"}));
  return {command, [o] { return handout(*o); }};
}

}  // namespace ascope::cli
