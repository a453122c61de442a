#include "app/cli/training/training_run.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>

#include "app/cli/commands.h"
#include "app/cli/training/stop_signals.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/train/trainer.h"
#include "engine/vocabulary/figures_text.h"

namespace ascope::cli {
namespace {

std::string clock(double seconds) {
  const int s = static_cast<int>(seconds + 0.5);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%d:%02d", s / 60, s % 60);
  return buffer;
}

/// `steps_before` = the step a resumed run started from, so that it/s counts this session only.
void printProgress(const StepMetrics& m, int64_t steps_before, bool tty) {
  std::fprintf(stdout,
               "%sepoch %d  step %lld/%lld  loss %.4f  acc %.3f  lr %.2e  %.1f it/s  %.0f "
               "samples/s  ETA %s%s",
               tty ? "\r" : "", m.epoch, static_cast<long long>(m.step),
               static_cast<long long>(m.total_steps), m.loss, m.accuracy, m.lr,
               m.elapsed_s > 0 ? 1.0 * (m.step - steps_before) / m.elapsed_s : 0.0, m.samples_per_s,
               clock(m.eta_s).c_str(), tty ? "\033[K" : "\n");
  std::fflush(stdout);
}

void printSummary(TrainerState state, const StepMetrics& last,
                  const std::optional<EpochSummary>& last_epoch,
                  const std::optional<TestEvaluation>& test, const std::string& run_dir,
                  const std::vector<MetricInfo>& declared) {
  std::printf("\nsummary: %s after %lld steps in %s\n", trainerStateName(state),
              static_cast<long long>(last.step), clock(last.elapsed_s).c_str());
  if (last_epoch) {
    std::printf("  epoch %d: train loss %.4f acc %.4f | val loss %.4f acc %.4f\n",
                last_epoch->epoch, last_epoch->train_loss, last_epoch->train_accuracy,
                last_epoch->val_loss, last_epoch->val_accuracy);
    if (!last_epoch->figures.empty()) {
      std::printf("  %s\n", figuresText(last_epoch->figures, declared, "  ").c_str());
    }
  }
  if (test && test->split == "none") {
    std::printf(
        "  test: no test split (the data has none and --test-fraction is 0): no test "
        "figure\n");
  } else if (test) {
    // The run's final figure: every sample of the test split, never looked at while training.
    const char* name = test->split == "test" ? "test" : "final (validation split)";
    std::printf("  %s: acc %.4f loss %.4f on %lld samples (%s weights, step %lld)\n", name,
                test->accuracy, test->loss, static_cast<long long>(test->samples),
                test->best_weights ? "best" : "last", static_cast<long long>(test->weights_step));
    if (!test->figures.empty()) {
      std::printf("  %s: %s\n", name, figuresText(test->figures, declared, "  ").c_str());
    }
    if (!test->origin.empty()) std::printf("  test split: %s\n", test->origin.c_str());
  }
  if (!run_dir.empty()) std::printf("  run folder: %s\n", run_dir.c_str());
}

}  // namespace

int trainAndReport(const TrainingConfig& config, const std::optional<JobRank>& job) {
  // Before start(): a signal during data loading stops the run as soon as it can stop. Before the
  // trainer too, so that it outlives the trainer's teardown: a rank's SIGHUP (its launcher killed
  // after passing a stop on) landing there must not end the process with its summary unwritten.
  const StopSignals signals;
  Trainer trainer(config, job);
  // A rank other than 0 says only what goes wrong; rank 0 speaks for the job.
  const bool quiet = job && !job->leads();
  const std::string prefix = quiet ? "rank " + std::to_string(job->rank) + ": " : "";
  if (Status s = trainer.start(); !s.ok()) return usageError(s.error(), "train");
  const bool tty = isatty(STDOUT_FILENO) != 0;
  StepMetrics last;
  int64_t steps_before = -1;
  std::optional<EpochSummary> last_epoch;
  std::optional<TestEvaluation> test;
  bool progress_shown = false, failed = false;
  int stop_signal = 0;
  auto last_print = std::chrono::steady_clock::now() - std::chrono::hours(1);
  for (bool done = false; !done;) {
    done = trainer.finished();  // read before draining, so nothing published is missed
    if (stop_signal == 0 && signals.received() != 0) {
      stop_signal = signals.received();
      trainer.stop();
      // Rank 0 says it for the job: the launcher passes the signal on to every rank.
      if (!quiet) {
        std::fprintf(stderr,
                     "%sattentionscope-cli: %s: stopping after the current step and writing the "
                     "checkpoint (a second signal exits at once)\n",
                     tty && progress_shown ? "\r\033[K" : "", signalName(stop_signal));
      }
      progress_shown = false;
    }
    EventBatch batch = trainer.drainEvents();
    if (!batch.metrics.empty()) {
      if (steps_before < 0) steps_before = batch.metrics.front().step - 1;
      last = batch.metrics.back();
    }
    for (const LogLine& line : batch.logs) {
      if (quiet && line.level < Severity::kWarning) continue;
      std::fprintf(stderr, "%s%s%s\n", tty && progress_shown ? "\r\033[K" : "", prefix.c_str(),
                   line.text.c_str());
      progress_shown = false;
    }
    for (const EpochSummary& e : batch.epochs) last_epoch = e;
    if (batch.test) test = batch.test;
    for (const Failure& f : batch.failures) {
      std::fprintf(stderr, "%sattentionscope-cli: %s%s\n", tty && progress_shown ? "\r\033[K" : "",
                   prefix.c_str(), f.message.c_str());
      failed = true;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!quiet && last.step > 0 &&
        (tty ? now - last_print > std::chrono::milliseconds(200)
             : now - last_print > std::chrono::seconds(10))) {
      printProgress(last, steps_before, tty);
      progress_shown = tty;
      last_print = now;
    }
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  trainer.wait();
  if (tty && progress_shown) std::fputs("\n", stdout);
  const TrainerState state = trainer.state();
  if (!quiet)
    printSummary(state, last, last_epoch, test, trainer.runDir(), declaredMetrics(config.task));
  if (failed || state == TrainerState::kFailed) return 1;
  if (quiet) return stop_signal != 0 && state == TrainerState::kStopped ? kExitStoppedBySignal : 0;
  if (stop_signal != 0 && state == TrainerState::kStopped) {
    std::printf("  stopped by %s; continue with: attentionscope-cli train --resume %s\n",
                signalName(stop_signal), trainer.runDir().c_str());
    return kExitStoppedBySignal;
  }
  return 0;
}

}  // namespace ascope::cli
