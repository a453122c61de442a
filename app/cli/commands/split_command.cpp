// `attentionscope-cli split`: the three splits of a text classification task's data, exactly as a
// run of the same settings splits them, written as train.csv, validation.csv and test.csv, so that
// a baseline outside the program (bench/imdb_tfidf_baseline.py) is fitted, tuned and tested on
// the very samples a run trains, validates and tests on (issue 56).
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/subcommands.h"
#include "app/cli/task_help.h"
#include "app/cli/training/training_options.h"
#include "app/cli/training/training_overrides.h"
#include "engine/core/output_file.h"
#include "engine/datasets/held_out_splits.h"
#include "engine/datasets/text_samples_csv.h"
#include "engine/runfolder/own_files.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope::cli {
namespace {

namespace fs = std::filesystem;

struct SplitOptions {
  TrainingOptions training;  ///< --task, --preset, --data, --seed and the held-out options
  std::optional<std::string> run;
  std::string out;
};

/// One file `split` writes: its name in --out and the split it holds.
struct SplitFile {
  const char* name;
  DataSplit split;
  const char* what;
};
constexpr SplitFile kSplitFiles[] = {
    {"train.csv", DataSplit::kTrain, "the training split"},
    {"validation.csv", DataSplit::kValidation, "the validation split"},
    {"test.csv", DataSplit::kTest, "the test split"},
};

/// The settings whose splits are written: a run's own (its data named again: a run folder is
/// untrusted, engine/tasks/registry/run_config_reader.h), else a new run's from the options.
Expected<TrainingConfig> splitConfig(const SplitOptions& o) {
  if (!o.run) return trainingConfigFromOptions(o.training);
  Expected<TrainingConfig> saved = readRunConfig(*o.run);
  if (!saved.ok()) return Error{"--run: " + saved.error()};
  return withNamedData(*saved, *o.training.data);
}

/// Whether `path` is `folder` or lies under it (both made absolute, links resolved where they
/// exist: the folder --out names may not exist yet); with `at_only`, whether it is `folder`.
bool isAtOrUnder(const fs::path& path, const fs::path& folder, bool at_only) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(path, ec), f = fs::weakly_canonical(folder, ec);
  auto pi = p.begin();
  for (auto fi = f.begin(); fi != f.end(); ++fi, ++pi) {
    if (fi->empty()) continue;  // the trailing "" of a folder named with a final slash
    if (pi == p.end() || *pi != *fi) return false;
  }
  return !at_only || pi == p.end() || (pi->empty() && std::next(pi) == p.end());
}

/// Refusals of --out before any data is read: not a folder, the folder of a file the command
/// reads (a folder holding train.csv and test.csv beside the data would read as another data
/// set) or in a folder it reads, a parent that does not exist, or any of the three files there
/// already (split writes new files only, never over a split someone scored).
Status checkSplitFolder(const fs::path& dir, const std::vector<CommandInput>& inputs) {
  std::error_code ec;
  const std::string shown = dir.string();
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    return Error{shown + " is not a folder: give a folder for the three files"};
  }
  for (const CommandInput& input : inputs) {
    const bool folder = fs::is_directory(input.path, ec);
    const fs::path home = folder ? fs::path(input.path) : fs::absolute(input.path).parent_path();
    if (isAtOrUnder(dir, home, /*at_only=*/!folder)) {
      return Error{shown + " is " + (folder ? "in " : "the folder of ") + input.path + ", " +
                   input.what +
                   ": the splits go to a folder of their own (train.csv and test.csv beside the "
                   "data would read as another data set)"};
    }
  }
  if (!fs::is_directory(dir, ec)) {
    const fs::path parent = fs::absolute(dir).parent_path();
    if (!fs::is_directory(parent, ec)) return Error{parent.string() + ": no such folder"};
    return {};
  }
  for (const SplitFile& file : kSplitFiles) {
    const fs::path path = dir / file.name;
    if (fs::exists(fs::symlink_status(path, ec))) {
      return Error{path.string() +
                   " exists: split writes new files only (remove it or choose another folder)"};
    }
    if (Status writable = checkOutputFile(path.string(), inputs); !writable.ok()) return writable;
  }
  return {};
}

/// Writes the splits that have samples, each atomically; on a failure the files already written
/// are removed again, so that --out never holds some splits of one run and none of another.
Status writeSplits(const fs::path& dir, const TextDataset& data,
                   const std::vector<CommandInput>& inputs) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec) && !fs::create_directory(dir, ec)) {
    return Error{dir.string() + ": cannot create the folder: " + ec.message()};
  }
  std::vector<fs::path> written;
  for (const SplitFile& file : kSplitFiles) {
    const std::vector<TextSample>& samples = splitSamples(data, file.split);
    if (file.split == DataSplit::kTest && samples.empty()) continue;
    const fs::path path = dir / file.name;
    if (Status s = writeOutputFile(path.string(), textSamplesCsv(samples), inputs); !s.ok()) {
      for (const fs::path& done : written) fs::remove(done, ec);
      return s;
    }
    written.push_back(path);
  }
  return {};
}

int split(const SplitOptions& o) {
  Expected<TrainingConfig> config = splitConfig(o);
  if (!config.ok()) return usageError(config.error(), "split");
  const TaskDescriptor* task = TaskRegistry::instance().find(config->task);
  if (task == nullptr || !task->text_splits) {
    return usageError((o.run ? "--run: a run of " : "--task ") + config->task +
                          ": split writes the texts of a text classification task (" +
                          textSplitTaskIds() + "), not " + config->task,
                      "split");
  }
  std::vector<CommandInput> inputs;
  if (o.run) inputs = runFolderInputs(*o.run);
  for (const std::string& path : dataPathsOf(*config)) inputs.push_back({path, "the data"});
  if (Status place = checkSplitFolder(o.out, inputs); !place.ok()) {
    return usageError("--out: " + place.error(), "split");
  }

  std::vector<std::string> warnings;
  Expected<TextDataset> data = task->text_splits(*config, &warnings);
  for (const std::string& w : warnings) std::fprintf(stderr, "attentionscope-cli: %s\n", w.c_str());
  if (!data.ok()) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", data.error().c_str());
    return 1;
  }
  if (Status written = writeSplits(o.out, *data, inputs); !written.ok()) {
    std::fprintf(stderr, "attentionscope-cli: --out: %s\n", written.error().c_str());
    return 1;
  }

  const std::string noun = task->sample_terms.input + "s";
  std::printf("split: %s data %s, seed %llu\n", task->id.c_str(), config->data.c_str(),
              static_cast<unsigned long long>(config->seed));
  const std::string origins[] = {"", data->origins.validation, data->origins.test};
  for (const SplitFile& file : kSplitFiles) {
    const std::size_t n = splitSamples(*data, file.split).size();
    if (file.split == DataSplit::kTest && n == 0) {
      std::printf(
          "  %-15s not written: no test split (the data has none and --test-fraction is 0)\n",
          file.name);
      continue;
    }
    const std::string& origin = origins[splitSlot(file.split)];
    std::printf("  %-15s %7s %s: %s\n", file.name, groupedCount(n).c_str(), noun.c_str(),
                origin.empty() ? file.what : origin.c_str());
  }
  std::printf("wrote %s\n", o.out.c_str());
  return 0;
}

}  // namespace

Subcommand addSplitCommand(CLI::App& app) {
  auto o = std::make_shared<SplitOptions>();
  CLI::App* command = app.add_subcommand(
      "split", "write the train, validation and test split of a text data set as a run splits it");
  command->footer(
      "  attentionscope-cli split --task TASK --data PATH [--seed N] [split options] --out DIR\n"
      "  attentionscope-cli split --run RUNDIR --data PATH --out DIR\n\n"
      "Reads PATH as 'train' would with the same options (the preset's seed and fractions unless\n"
      "given) and writes DIR/train.csv, DIR/validation.csv and DIR/test.csv: one row per sample,\n"
      "text,label (0/1) with RFC 4180 quoting, the texts as the task reads them, in the run's\n"
      "order. --run takes a run's own settings; its data is named again with --data. Held-out\n"
      "splits are carved as every run carves them: by the seed, one sample per distinct input,\n"
      "none of them in training. DIR is created (its parent must exist); it may not be the\n"
      "data's folder nor hold any of the three files already. Each file is written "
      "atomically.\n\n" +
      taskListing());
  CLI::Option* task = addTaskOption(*command, o->training);
  CLI::Option* preset = addPresetOption(*command, o->training);
  addDataOption(*command, o->training);
  CLI::Option* seed = addSeedOption(*command, o->training);
  const std::vector<CLI::Option*> held_out = addHeldOutOptions(*command, o->training);
  CLI::Option* run =
      command
          ->add_option("--run", o->run,
                       "the splits of this run folder: its seed and split settings (with --data)")
          ->type_name("RUNDIR");
  command->add_option("--out", o->out, "a new folder, or one without the three files")
      ->type_name("DIR")
      ->required();
  run->needs(command->get_option("--data"));
  for (CLI::Option* fixed : {task, preset, seed}) run->excludes(fixed);
  for (CLI::Option* fixed : held_out) run->excludes(fixed);
  return {command, [o] { return split(*o); }};
}

}  // namespace ascope::cli
