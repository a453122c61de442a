#include <torch/cuda.h>

#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <thread>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/training_overrides.h"
#include "engine/run/run_folder.h"
#include "engine/train/trainer.h"

namespace ascope::cli {
namespace {

constexpr const char* kTrainHelp =
    "usage: attentionscope-cli train --task vit|imdb|translate [options]\n"
    "       attentionscope-cli train --resume RUNDIR\n"
    "\n"
    "  --task T          vit (images), imdb (sentiment) or translate (English→Italian)\n"
    "  --data D          builtin (default) or a path: CIFAR-10 binary folder or image folder "
    "(vit);\n"
    "                    aclImdb folder or CSV (imdb); moses pair, TSV or JSON lines (translate)\n"
    "  --preset P        seed (the reference configuration), laptop (default without a GPU), tiny\n"
    "  --epochs N        number of epochs\n"
    "  --steps N         train exactly N optimizer steps instead (not with --epochs)\n"
    "  --max-seconds S   stop after S seconds (evaluates and checkpoints first)\n"
    "  --batch-size N    samples per step\n"
    "  --lr X            peak learning rate\n"
    "  --device D        cpu or cuda (default: cuda when present)\n"
    "  --bf16            CUDA only: autocast to bfloat16\n"
    "  --seed N          random seed (same seed, same run)\n"
    "  --threads N       CPU threads for tensor operations\n"
    "  --source-lang L   translate: language code of the source side (default en)\n"
    "  --target-lang L   translate: language code of the target side (default it); picks the\n"
    "                    pair in a moses pair (Books.en-it.en/.it) or JSON lines corpus\n"
    "  --out RUNDIR      run folder (default runs/<date>_<time>_<task>); must not hold a run\n"
    "  --resume RUNDIR   continue an interrupted run exactly where its checkpoint left it;\n"
    "                    --epochs, --steps, --max-seconds, --device, --threads may change\n"
    "  --interrupt-at-step N  stop after step N as an interruption would (for testing resume)\n";

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

}  // namespace

int runTrain(const std::vector<std::string>& args) {
  Expected<CliOptions> parsed =
      CliOptions::parse(args,
                        {"--task", "--data", "--preset", "--epochs", "--steps", "--max-seconds",
                         "--batch-size", "--lr", "--device", "--seed", "--threads", "--out",
                         "--resume", "--interrupt-at-step", "--source-lang", "--target-lang"},
                        {"--help", "--bf16"});
  if (!parsed.ok()) return usageError(parsed.error(), "train");
  const CliOptions& o = *parsed;
  if (o.has("--help")) {
    std::fputs(kTrainHelp, stdout);
    return 0;
  }
  Expected<TrainingConfig> config = trainingConfigFromOptions(o);
  if (!config.ok()) return usageError(config.error(), "train");

  Trainer trainer(*config);
  if (Status s = trainer.start(); !s.ok()) return usageError(s.error(), "train");
  const bool tty = isatty(STDOUT_FILENO) != 0;
  StepMetrics last;
  int64_t steps_before = -1;
  std::optional<EpochSummary> last_epoch;
  bool progress_shown = false, failed = false;
  auto last_print = std::chrono::steady_clock::now() - std::chrono::hours(1);
  for (bool done = false; !done;) {
    done = trainer.finished();  // read before draining, so nothing published is missed
    EventBatch batch = trainer.events()->drain();
    if (!batch.metrics.empty()) {
      if (steps_before < 0) steps_before = batch.metrics.front().step - 1;
      last = batch.metrics.back();
    }
    for (const LogLine& line : batch.logs) {
      std::fprintf(stderr, "%s%s\n", tty && progress_shown ? "\r\033[K" : "", line.text.c_str());
      progress_shown = false;
    }
    for (const EpochSummary& e : batch.epochs) last_epoch = e;
    for (const Failure& f : batch.failures) {
      std::fprintf(stderr, "%sattentionscope-cli: %s\n", tty && progress_shown ? "\r\033[K" : "",
                   f.message.c_str());
      failed = true;
    }
    const auto now = std::chrono::steady_clock::now();
    if (last.step > 0 && (tty ? now - last_print > std::chrono::milliseconds(200)
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
  std::printf("\nsummary: %s after %lld steps in %s\n", trainerStateName(state),
              static_cast<long long>(last.step), clock(last.elapsed_s).c_str());
  if (last_epoch) {
    std::printf("  epoch %d: train loss %.4f acc %.4f | val loss %.4f acc %.4f\n",
                last_epoch->epoch, last_epoch->train_loss, last_epoch->train_accuracy,
                last_epoch->val_loss, last_epoch->val_accuracy);
    if (last_epoch->bleu) {
      std::printf("  BLEU %.2f  CER %.4f  WER %.4f  exact match %.4f\n", *last_epoch->bleu,
                  *last_epoch->cer, *last_epoch->wer, *last_epoch->exact_match);
    }
  }
  if (!trainer.runDir().empty()) std::printf("  run folder: %s\n", trainer.runDir().c_str());
  return failed || state == TrainerState::kFailed ? 1 : 0;
}

int usageError(const std::string& message, const std::string& command) {
  std::fprintf(stderr, "attentionscope-cli: %s (see 'attentionscope-cli %s--help')\n",
               message.c_str(), command.empty() ? "" : (command + " ").c_str());
  return 2;
}

}  // namespace ascope::cli
