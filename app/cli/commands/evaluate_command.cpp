// `attentionscope-cli evaluate`: a trained run scored on a data set given on the command line —
// the figures its task declares, a confusion matrix for a classifier, and the worst errors with
// their attention.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/output/attention_json.h"
#include "app/cli/output/calibration_output.h"
#include "app/cli/output/evaluation_json.h"
#include "app/cli/subcommands.h"
#include "app/cli/training/stop_signals.h"
#include "app/cli/training/training_options.h"
#include "engine/device/device_query.h"
#include "engine/evaluation/run_evaluation.h"
#include "engine/runfolder/own_files.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope::cli {
namespace {

struct EvaluateOptions {
  std::string run;
  std::string data;
  std::optional<std::string> split;  ///< none: the engine's default (EvaluationRequest::split)
  int64_t errors = 10;
  std::optional<std::string> out;
  std::optional<std::string> device;
  std::optional<int64_t> beam;
};

/// At most `n` characters of `text` on one line, cut at a UTF-8 boundary.
std::string excerpt(const std::string& text, std::size_t n = 90) {
  std::string one_line = text;
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  if (one_line.size() <= n) return one_line;
  while (n > 0 && (static_cast<unsigned char>(one_line[n]) & 0xc0) == 0x80) --n;
  return one_line.substr(0, n) + "…";
}

void printClassification(const EvaluationReport& r) {
  std::printf("  macro F1 %.4f\n\n", r.macro_f1);
  std::size_t width = 8;
  for (const std::string& c : r.classes) width = std::max(width, c.size());
  std::printf("  %-*s %9s %9s %9s %9s\n", static_cast<int>(width), "class", "support", "precision",
              "recall", "F1");
  for (const ClassScores& c : r.per_class) {
    std::printf("  %-*s %9lld %9.4f %9.4f %9.4f\n", static_cast<int>(width), c.name.c_str(),
                static_cast<long long>(c.support), c.precision, c.recall, c.f1);
  }
  std::printf("\n  confusion matrix (rows: true class, columns: answered)\n  %-*s",
              static_cast<int>(width), "");
  for (const ClassScores& c : r.per_class) {
    std::printf(" %9s", c.name.substr(0, 9).c_str());
  }
  std::printf("\n");
  for (std::size_t t = 0; t < r.confusion.size(); ++t) {
    std::printf("  %-*s", static_cast<int>(width), r.per_class[t].name.c_str());
    for (const std::int64_t n : r.confusion[t]) std::printf(" %9lld", static_cast<long long>(n));
    std::printf("\n");
  }
}

/// The headline first, then every other figure the task declares, each with what it counts.
void printFigures(const EvaluationReport& r) {
  const TaskDescriptor* task = TaskRegistry::instance().find(r.task);
  const std::vector<MetricInfo> declared = task ? task->metrics : std::vector<MetricInfo>{};
  const std::string accuracy =
      task && !task->accuracy_name.empty() ? task->accuracy_name : std::string("accuracy");
  std::printf("  %s %.4f  loss %.4f\n", accuracy.c_str(), r.accuracy, r.loss);
  for (const Figure& f : r.figures) {
    const MetricInfo* known = findMetric(declared, f.key);
    const MetricInfo info = known ? *known : undeclaredMetric(f.key);
    std::printf("  %-26s %10s%s%s\n", info.title.c_str(), info.format(f.value).c_str(),
                info.description.empty() ? "" : "  ", info.description.c_str());
  }
}

/// Each error in the task's own words: a translation's source, reference and translation on lines
/// of their own, a class answer with its probability on one.
void printWorst(const EvaluationReport& r) {
  if (r.worst.empty()) return;
  const TaskDescriptor* task = TaskRegistry::instance().find(r.task);
  const SampleTerms terms = task ? task->sample_terms : SampleTerms{};
  std::printf("\n  most confidently wrong (highest loss first):\n");
  for (const ExplainedError& e : r.worst) {
    const SamplePrediction& p = e.sample.prediction;
    if (terms.free_text) {
      const int width = static_cast<int>(
          std::max({terms.input.size(), terms.expected.size(), terms.answer.size()}));
      std::printf("  #%lld loss %.3f\n    %-*s %s\n    %-*s %s\n    %-*s %s\n",
                  static_cast<long long>(e.sample.index), e.sample.loss, width, terms.input.c_str(),
                  excerpt(p.input).c_str(), width, terms.expected.c_str(),
                  excerpt(p.expected).c_str(), width, terms.answer.c_str(),
                  excerpt(p.answer).c_str());
    } else {
      std::printf("  #%lld %s, answered %s (p=%.3f), loss %.3f%s%s\n",
                  static_cast<long long>(e.sample.index), p.expected.c_str(), p.answer.c_str(),
                  p.probability, e.sample.loss, p.input.empty() ? "" : ": ",
                  excerpt(p.input).c_str());
    }
  }
}

int evaluate(const EvaluateOptions& o) {
  const std::string device = o.device.value_or("cpu");
  if (device == "cuda" && !cudaAvailable()) {
    return usageError("--device cuda: " + noCudaReason(), "evaluate");
  }
  // Before hours of scoring: a typo in the output folder should cost nothing, and the report must
  // never land on what the command reads (the data set, the run's weights) nor on a device.
  std::vector<CommandInput> inputs = runFolderInputs(o.run);
  inputs.push_back({o.data, "the data set"});
  if (o.out) {
    if (Status writable = checkOutputFile(*o.out, inputs); !writable.ok()) {
      return usageError("--out: " + writable.error(), "evaluate");
    }
  }
  EvaluationRequest request;
  request.run_dir = o.run;
  request.data = o.data;
  request.whole_data = o.split == "all";
  if (o.split && !request.whole_data) request.split = parseSplit(*o.split);
  request.errors = static_cast<int>(o.errors);
  request.device = device;
  request.beam_width = static_cast<int>(o.beam.value_or(0));

  // A long set shows how far it is: on a terminal a line that updates, else a line every 10 s.
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const StopSignals signals;
  std::atomic<bool> cancel{false};
  auto last = std::chrono::steady_clock::now() - std::chrono::hours(1);
  ScoringProgress progress;
  progress.cancel = &cancel;
  progress.report = [&](std::int64_t done, std::int64_t total) {
    if (signals.received() != 0) cancel = true;
    const auto now = std::chrono::steady_clock::now();
    if (!tty && now - last < std::chrono::seconds(10) && done < total) return;
    last = now;
    std::fprintf(stderr, "%sevaluating: %lld/%lld%s", tty ? "\r" : "", static_cast<long long>(done),
                 static_cast<long long>(total), tty ? "\033[K" : "\n");
  };
  Expected<EvaluationReport> report = evaluateRun(request, progress);
  if (tty) std::fprintf(stderr, "\n");
  if (!report.ok()) {
    if (signals.received() != 0) {
      std::fprintf(stderr, "attentionscope-cli: stopped by %s\n", signalName(signals.received()));
      return 1;
    }
    return usageError(report.error(), "evaluate");
  }
  for (const std::string& w : report->warnings) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", w.c_str());
  }
  const EvaluationReport& r = *report;
  std::printf(
      "evaluate: %s (%s, step %lld) on %s\n  split %s: %s\n  %lld samples in %.1f s on %s\n",
      r.run_dir.c_str(), r.checkpoint.c_str(), static_cast<long long>(r.step), r.data.c_str(),
      r.split.c_str(), r.split_origin.c_str(), static_cast<long long>(r.samples), r.seconds,
      r.device.c_str());
  printFigures(r);
  if (!r.classes.empty()) printClassification(r);
  if (r.calibration) printCalibration(*r.calibration);
  printWorst(r);
  if (o.out) {
    if (Status written = writeEvaluationJson(*o.out, r, inputs); !written.ok()) {
      std::fprintf(stderr, "attentionscope-cli: --out: %s\n", written.error().c_str());
      return 1;
    }
    std::printf("\nwrote %s\n", o.out->c_str());
  }
  return 0;
}

}  // namespace

Subcommand addEvaluateCommand(CLI::App& app) {
  auto o = std::make_shared<EvaluateOptions>();
  CLI::App* command =
      app.add_subcommand("evaluate", "score a trained run on a data set, with its worst errors");
  command->footer(
      "  attentionscope-cli evaluate --run RUNDIR --data PATH [--split test|validation|train|all]\n"
      "                              [--errors N] [--out FILE.json]\n\n"
      "The run's best weights (else its last) answer every sample of one split of PATH, split as\n"
      "the run split its own data (its seed, validation and test fractions): the run's training\n"
      "data gives back the run's own splits, a data set with its own test split (aclImdb test/,\n"
      "CIFAR-10 test_batch.bin, test.csv) that split. --split all scores every sample of PATH\n"
      "(its own test split where it has one): a held-out file.\n"
      "Classification: loss, accuracy, per-class precision, recall and F1, the confusion matrix.\n"
      "Translation: BLEU as sacreBLEU computes it (13a, corpus level, brevity penalty) against\n"
      "the raw reference text, chrF, CER, WER, exact match. --errors N asks the N most\n"
      "confidently wrong samples (highest loss) again and writes their attention, every layer\n"
      "and head, to --out. --beam K translates with a beam search and also gives greedy's BLEU.");
  command->add_option("--run", o->run, "a run folder written by 'train' (one with a checkpoint)")
      ->type_name("RUNDIR")
      ->required();
  command
      ->add_option("--data", o->data, "a data set in a format the run's task reads (see 'train')")
      ->type_name("PATH")
      ->required()
      ->check(dataPath(/*builtin=*/true));
  command
      ->add_option("--split", o->split,
                   "test, validation, train, or all (default: test of the run's own data, all of "
                   "any other)")
      ->type_name("SPLIT")
      ->check(CLI::IsMember({"test", "validation", "train", "all"}));
  command
      ->add_option("--errors", o->errors,
                   "how many of the most confidently wrong samples to explain (default 10)")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{0}, int64_t{10'000}));
  command->add_option("--out", o->out, "write the report, worst errors' attention included, here")
      ->type_name("FILE.json");
  addDeviceOption(*command, o->device,
                  "cpu (default) or cuda; a run trained on either loads on either");
  addBeamOption(*command, o->beam);
  return {command, [o] { return evaluate(*o); }};
}

}  // namespace ascope::cli
