// `attentionscope-cli infer`: a trained run answers a text or an image given on the command line,
// or a minimal pair of them (two texts that differ in one place, an image with and without one
// patch) and names the heads whose attention the difference moved most.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/output/attention_json.h"
#include "app/cli/output/head_change_list.h"
#include "app/cli/output/json_output_file.h"
#include "app/cli/output/minimal_pair_json.h"
#include "app/cli/subcommands.h"
#include "app/cli/training/training_options.h"
#include "engine/analysis/minimal_pair.h"
#include "engine/device/device_query.h"
#include "engine/inference/checkpoint_inference.h"
#include "engine/runfolder/own_files.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope::cli {
namespace {

struct InferOptions {
  std::string run;
  std::optional<std::string> text, image;
  std::optional<std::string> device;
  std::optional<std::string> attention;  ///< where the input's attention goes as JSON
  std::optional<int64_t> beam;
  /// A minimal pair: the text or patch that makes the second question, and where their
  /// comparison goes as JSON.
  std::optional<std::string> pair_text;
  std::optional<int64_t> occlude_patch;
  std::optional<std::string> pair_json;
};

/// How many heads the pair's list names: enough to see a pattern, few enough to read.
constexpr std::size_t kPairHeadsShown = 8;

/// The ids of the registered tasks that take `input`: "a or b".
std::string idsTaking(TaskInput input) {
  std::vector<std::string> ids;
  for (const TaskDescriptor* task : TaskRegistry::instance().all()) {
    if (task->input == input) ids.push_back(task->id);
  }
  return joinWithOr(ids);
}

/// The input the run's task takes matches the one given; errors say which runs take it.
Expected<const TaskDescriptor*> checkedTask(const InferOptions& o) {
  Expected<TrainingConfig> config = readRunConfig(o.run);
  if (!config.ok()) return Error{config.error()};
  Expected<const TaskDescriptor*> task = findTask(config->task);
  if (!task.ok()) return Error{o.run + ": " + task.error()};
  const TaskInput given = o.image ? TaskInput::kImage : TaskInput::kText;
  if ((*task)->input != given) {
    return Error{std::string(o.image ? "--image" : "--text") + " is for a run of " +
                 idsTaking(given) + "; " + o.run + " is a run of " + config->task};
  }
  return *task;
}

/// A free-text answer as printed: an empty one said, not shown as a blank line.
std::string shownText(const std::string& text) {
  return text.empty() ? "(empty: the answer ends at once)" : text;
}

void printAnswer(const InferenceAnswer& answer, const TaskDescriptor& task) {
  if (task.sample_terms.free_text) {
    std::printf("%s\n", shownText(answer.label).c_str());
    // A beam's other finished hypotheses, each with its length-normalised log-probability.
    for (std::size_t i = 0; i < answer.ranking.size(); ++i) {
      std::printf("  %s %.3f  %s\n", i == 0 ? "beam:" : "     ", answer.ranking[i].second,
                  shownText(answer.ranking[i].first).c_str());
    }
    return;
  }
  std::printf("%s (p=%.3f)\n", answer.label.c_str(), answer.probability);
  // A run without a temperature answers as it always did; one with it says so.
  if (answer.temperature != 1.0 || answer.calibration_for_other_weights) {
    std::printf("  %s\n", answer.calibration.c_str());
  }
  // Tasks list their classes in their own order (sentiment: negative, positive), not by rank.
  std::vector<std::pair<std::string, double>> ranking = answer.ranking;
  std::stable_sort(ranking.begin(), ranking.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (std::size_t i = 1; i < std::min<std::size_t>(ranking.size(), 3); ++i) {
    std::printf("  then %s (p=%.3f)\n", ranking[i].first.c_str(), ranking[i].second);
  }
}

/// The second question of a pair, a's answer already in `pair`: asks it, compares the two,
/// writes --pair-json and prints both answers and the heads that changed most.
int inferPair(const InferOptions& o, InferenceRequest request, AskedPair pair,
              const TaskDescriptor& task, const std::vector<CommandInput>& inputs) {
  const std::string option = o.pair_text ? "--pair-text" : "--occlude-patch";
  if (o.pair_text) {
    request.text = *o.pair_text;
    pair.input_b = *o.pair_text;
  } else {
    pair.occluded_patch = static_cast<int>(*o.occlude_patch);
    request.occluded_patch = pair.occluded_patch;
    pair.input_b = *o.image;
  }
  Expected<InferenceAnswer> b = inferFromCheckpoint(request);
  if (!b.ok()) return usageError(option + ": " + b.error(), "infer");
  pair.b = std::move(*b);
  pair.comparison = compareMinimalPair(pair.a.attention, pair.b.attention, pair.occluded_patch);
  if (!pair.comparison.problem.empty()) {
    std::fprintf(stderr, "attentionscope-cli: the pair's attention cannot be compared: %s\n",
                 pair.comparison.problem.c_str());
    return 1;
  }
  if (o.pair_json) {
    if (Status written = writeJsonOutputFile(*o.pair_json, minimalPairJson(pair), inputs);
        !written.ok()) {
      std::fprintf(stderr, "attentionscope-cli: --pair-json: %s\n", written.error().c_str());
      return 1;
    }
  }
  std::printf("A: %s\n", pair.input_a.c_str());
  printAnswer(pair.a, task);
  if (o.pair_text) {
    std::printf("\nB: %s\n", pair.input_b.c_str());
  } else {
    std::printf("\nB: %s with patch %d occluded\n", pair.input_b.c_str(), pair.occluded_patch);
  }
  printAnswer(pair.b, task);
  std::printf("\n%s", headChangeList(rankHeadChanges(pair.comparison), kPairHeadsShown).c_str());
  return 0;
}

int infer(const InferOptions& o) {
  if (!o.text && !o.image) return usageError("give --text \"…\" or --image FILE", "infer");
  const bool pair = o.pair_text || o.occlude_patch;
  if (o.pair_json && !pair) {
    return usageError(
        "--pair-json writes a pair's comparison: give --pair-text B with --text, or "
        "--occlude-patch N with --image",
        "infer");
  }
  if (pair && o.attention) {
    return usageError(
        "--attention writes one input's attention; for a pair, --pair-json FILE.json writes "
        "both and how each head changed",
        "infer");
  }
  const std::string device = o.device.value_or("cpu");
  if (device == "cuda" && !cudaAvailable()) {
    return usageError("--device cuda: " + noCudaReason(), "infer");
  }
  Expected<const TaskDescriptor*> task = checkedTask(o);
  if (!task.ok()) return usageError(task.error(), "infer");
  // Before the model loads: a typo in the folder should not cost a whole inference first, and
  // the attention never lands on the run's own files, the image asked about or a device.
  std::vector<CommandInput> inputs = runFolderInputs(o.run);
  if (o.image) inputs.push_back({*o.image, "the image"});
  for (const auto& [name, path] :
       {std::pair{"--attention", &o.attention}, std::pair{"--pair-json", &o.pair_json}}) {
    if (!*path) continue;
    if (Status writable = checkOutputFile(**path, inputs); !writable.ok()) {
      return usageError(std::string(name) + ": " + writable.error(), "infer");
    }
  }
  InferenceRequest request;
  request.run_dir = o.run;
  request.device = device;
  request.checkpoint = CheckpointChoice::kBest;
  request.text = o.text.value_or("");
  request.image_file = o.image.value_or("");
  request.beam_width = static_cast<int>(o.beam.value_or(0));
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  if (!answer.ok()) return usageError(answer.error(), "infer");
  if (!answer->note.empty()) std::fprintf(stderr, "attentionscope-cli: %s\n", answer->note.c_str());
  if (!answer->calibration_warning.empty()) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", answer->calibration_warning.c_str());
  }
  const std::string input = o.text ? *o.text : *o.image;
  if (pair) {
    AskedPair asked;
    asked.a = std::move(*answer);
    asked.input_a = input;
    return inferPair(o, request, std::move(asked), **task, inputs);
  }
  if (o.attention) {
    if (Status written = writeAttentionJson(*o.attention, *answer, input, inputs); !written.ok()) {
      std::fprintf(stderr, "attentionscope-cli: --attention: %s\n", written.error().c_str());
      return 1;
    }
  }
  printAnswer(*answer, **task);
  return 0;
}

}  // namespace

Subcommand addInferCommand(CLI::App& app) {
  auto o = std::make_shared<InferOptions>();
  CLI::App* infer_command = app.add_subcommand("infer", "run a trained model on your own input");
  infer_command->footer(
      "  attentionscope-cli infer --run RUNDIR (--text \"…\" | --image FILE) "
      "[--attention FILE.json]\n"
      "  attentionscope-cli infer --run RUNDIR (--text A --pair-text B | --image FILE "
      "--occlude-patch N) [--pair-json FILE.json]");
  infer_command
      ->add_option("--run", o->run,
                   "a run folder written by 'train' (uses checkpoints/best.pt, else last.pt)")
      ->type_name("RUNDIR")
      ->required();
  CLI::Option* text =
      infer_command
          ->add_option("--text", o->text,
                       "a text for a run of a task that reads text (" +
                           idsTaking(TaskInput::kText) + "): classified or translated")
          ->type_name("T");
  CLI::Option* image =
      infer_command
          ->add_option("--image", o->image,
                       "an image for a run of an image task (" + idsTaking(TaskInput::kImage) +
                           "): PNG or JPEG, or a binary PPM (any build); resized to the model's "
                           "input size")
          ->type_name("FILE");
  text->excludes(image);
  infer_command
      ->add_option("--attention", o->attention,
                   "also write the input's attention (every layer and head, labelled with its own "
                   "tokens or patches) to this JSON file")
      ->type_name("FILE.json");
  infer_command
      ->add_option("--pair-text", o->pair_text,
                   "a minimal pair: a second text that differs from --text in one place (a word "
                   "replaced, split or inserted); prints both answers and the heads whose "
                   "attention changed most between them")
      ->type_name("B")
      ->needs(text);
  infer_command
      ->add_option("--occlude-patch", o->occlude_patch,
                   "a minimal pair of images: --image, then the same image with this patch "
                   "(from 0, row by row, as the attention labels them) filled with the model's "
                   "mean pixel; prints both answers and the heads that changed most")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{0}, int64_t{1'000'000}))
      ->needs(image);
  infer_command
      ->add_option("--pair-json", o->pair_json,
                   "with --pair-text or --occlude-patch: also write both inputs' attention, the "
                   "lined-up tokens and every head's change and difference (b − a) to this JSON "
                   "file")
      ->type_name("FILE.json");
  addDeviceOption(*infer_command, o->device,
                  "cpu (default) or cuda; a run trained on either loads on either");
  addBeamOption(*infer_command, o->beam);
  return {infer_command, [o] { return infer(*o); }};
}

}  // namespace ascope::cli
