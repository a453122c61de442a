// `attentionscope-cli ablate`: what each attention head of a trained run contributes, measured by
// switching heads off and evaluating again.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/subcommands.h"
#include "app/cli/training/stop_signals.h"
#include "engine/ablation/ablation_report.h"
#include "engine/ablation/run_ablation.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/train/tensor_threads.h"

namespace ascope::cli {
namespace {

struct AblateOptions {
  std::string run;
  std::optional<std::string> data;
  int64_t samples = AblationOptions{}.samples;
  int64_t decode_samples = AblationOptions{}.figure_samples;
  std::optional<int64_t> threads;
};

int ablate(const AblateOptions& o) {
  // The run's settings and whether they name a data path, before minutes of work: a run folder
  // is not trusted to open files on its own.
  Expected<TrainingConfig> config = readRunConfig(o.run);
  if (!config.ok()) return usageError(config.error(), "ablate");
  if (!o.data) {
    const std::string refusal =
        unnamedDataMessage(*config, o.run + "/config.json",
                           "give it again with --data to ablate on its validation split");
    if (!refusal.empty()) return usageError(refusal, "ablate");
  }
  AblationOptions options;
  options.samples = static_cast<int>(o.samples);
  options.figure_samples = static_cast<int>(o.decode_samples);
  options.threads = static_cast<int>(o.threads.value_or(0));
  if (const std::string note = tensorThreadsNote(options.threads); !note.empty()) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", note.c_str());
  }
  // Evaluations take seconds each: a count on a terminal shows it is working; Ctrl-C stops after
  // the current one and leaves any earlier ablation.csv as it was.
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  StopSignals signals;
  const auto started = std::chrono::steady_clock::now();
  const auto progress = [&](int done, int total) {
    if (tty) std::fprintf(stderr, "\rablating: %d/%d evaluations", done, total);
    return signals.received() == 0;
  };
  Expected<AblationTable> table = ablateRun(o.run, options, progress, o.data.value_or(""));
  if (tty) std::fprintf(stderr, "\n");
  if (!table.ok()) {
    const std::string message = signals.received() != 0
                                    ? std::string("stopped by ") + signalName(signals.received())
                                    : table.error();
    std::fprintf(stderr, "attentionscope-cli: %s\n", message.c_str());
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("head ablation of %s (step %lld)\n\n%s\nwrote %s (%.1f s)\n",
              table->checkpoint.c_str(), static_cast<long long>(table->step),
              formatAblationTable(*table, declaredMetrics(table->task)).c_str(),
              ablationCsvPath(o.run).c_str(), seconds);
  return 0;
}

}  // namespace

Subcommand addAblateCommand(CLI::App& app) {
  auto o = std::make_shared<AblateOptions>();
  CLI::App* command =
      app.add_subcommand("ablate", "measure what each attention head of a trained run contributes");
  command->footer(
      "Evaluates the run's newest checkpoint on its validation data as trained, then with each\n"
      "head dropped, with only one head of a layer kept, and with each whole layer dropped.\n"
      "Prints the change in accuracy (and BLEU for translation) per layer and head, and writes\n"
      "every figure to RUNDIR/ablation.csv. Works while the run is still training.\n"
      "A run trained on a data file or folder needs it named again with --data: the paths in a\n"
      "run folder's config.json are never opened on their own.");
  command->add_option("--run", o->run, "a run folder written by 'train' (one with a checkpoint)")
      ->type_name("RUNDIR")
      ->required();
  command
      ->add_option("--data", o->data,
                   "the run's data set (a run of built-in data needs none): its validation split, "
                   "as the run split it, is what the heads are measured on")
      ->type_name("PATH")
      ->check(dataPath(/*builtin=*/true));
  command
      ->add_option("--samples", o->samples,
                   "validation samples per evaluation (default " + std::to_string(o->samples) + ")")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{1}, int64_t{100'000}));
  command
      ->add_option("--decode-samples", o->decode_samples,
                   "translation: sentences greedy-decoded per evaluation for BLEU (default " +
                       std::to_string(o->decode_samples) + ", 0: no BLEU)")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{0}, int64_t{100'000}));
  command->add_option("--threads", o->threads, "CPU threads for tensor operations")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{1}, int64_t{1024}));
  return {command, [o] { return ablate(*o); }};
}

}  // namespace ascope::cli
