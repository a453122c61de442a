// `attentionscope-cli train`: a new run from a task's preset, or the rest of an interrupted one.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/subcommands.h"
#include "app/cli/task_help.h"
#include "app/cli/training/local_job.h"
#include "app/cli/training/training_options.h"
#include "app/cli/training/training_overrides.h"
#include "app/cli/training/training_run.h"
#include "engine/distributed/job_rank.h"

namespace ascope::cli {
namespace {

constexpr int64_t kLargest = std::numeric_limits<int64_t>::max();

}  // namespace

Subcommand addTrainCommand(CLI::App& app, const std::vector<std::string>& args) {
  auto o = std::make_shared<TrainingOptions>();
  CLI::App* train = app.add_subcommand("train", "train a task and write a run folder");
  train->footer(
      "  attentionscope-cli train --task TASK [options]     a new run\n"
      "  attentionscope-cli train --resume RUNDIR [options] the rest of an interrupted run\n\n"
      "Ctrl+C or SIGTERM stops after the current step and writes the checkpoint (exit code 3; "
      "continue\nwith --resume); a second one exits at once (exit code 1). A run folder has one "
      "writer: a second\ntrain or resume of the same folder is refused while the first runs.\n\n"
      "Data parallel: --nproc N starts N processes on this machine; torchrun (or anything that "
      "sets "
      "RANK,\nWORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT) starts one per rank, on one "
      "machine or many:\n  torchrun --nproc-per-node 2 --no-python attentionscope-cli train "
      "--task imdb --preset tiny\nEvery rank trains its share of each batch (--batch-size is the "
      "whole step's); rank 0\nwrites the run folder and prints the progress. Gloo on the CPU, NCCL "
      "on CUDA. A rank that is\ngone ends the job, naming the rank and the last checkpoint.\n\n" +
      taskListing());

  addTaskOption(*train, *o);
  CLI::Option* resume =
      train
          ->add_option("--resume", o->resume,
                       "continue an interrupted run exactly where its checkpoint left it, with "
                       "the settings in RUNDIR/config.json; --epochs, --steps, --max-seconds, "
                       "--device, --threads may change")
          ->type_name("RUNDIR");
  CLI::Option* data = addDataOption(*train, *o);
  const std::vector<CLI::Option*> held_out = addHeldOutOptions(*train, *o);
  CLI::Option* model =
      train
          ->add_option("--model", o->model,
                       "fine-tune this Hugging Face model folder (config.json, model.safetensors "
                       "or pytorch_model.bin, the tokenizer's or image processor's files) instead "
                       "of the task's own model: a BERT for imdb, a ViT for vit; with --preset "
                       "finetune")
          ->type_name("FOLDER");
  CLI::Option* preset = addPresetOption(*train, *o);
  CLI::Option* epochs = train->add_option("--epochs", o->epochs, "number of epochs")
                            ->type_name("N")
                            ->check(kWholeNumber)
                            ->check(CLI::Range(int64_t{1}, int64_t{1'000'000}));
  CLI::Option* steps =
      addStepsOption(*train, *o, "train exactly N optimizer steps, however many epochs that takes");
  epochs->excludes(steps);
  train
      ->add_option("--max-seconds", o->max_seconds,
                   "stop after S seconds (evaluates and checkpoints first); 0: no limit")
      ->type_name("S")
      ->check(realIn(0, 1e7));
  CLI::Option* batch_size = addBatchSizeOption(*train, *o);
  CLI::Option* lr = train->add_option("--lr", o->lr, "peak learning rate")
                        ->type_name("X")
                        ->check(realIn(0, 10, /*open=*/true));
  addDeviceOption(*train, o->device, "cpu or cuda (default: cuda when present)");
  train->add_flag("--bf16", o->bf16, "CUDA only: autocast to bfloat16");
  CLI::Option* seed = addSeedOption(*train, *o);
  addThreadsOption(*train, *o);
  addProbeOptions(*train, *o);
  CLI::Option* pieces =
      train
          ->add_option("--pieces", o->pieces,
                       "translation: learn N subword pieces per language (SentencePiece) from the "
                       "training pairs; 0 for whole words (default: the preset's)")
          ->type_name("N")
          ->check(kWholeNumber)
          ->check(CLI::Range(int64_t{0}, int64_t{10'000'000}));
  CLI::Option* source_lang =
      train
          ->add_option("--source-lang", o->source_lang,
                       "language code of the source side, for a task with a language pair "
                       "(default en)")
          ->type_name("L");
  CLI::Option* target_lang =
      train
          ->add_option("--target-lang", o->target_lang,
                       "language code of the target side (default it); picks the pair in a "
                       "corpus that holds several")
          ->type_name("L");
  CLI::Option* out =
      train
          ->add_option("--out", o->out,
                       "run folder (default runs/<date>_<time>_<task>); must not hold a run")
          ->type_name("RUNDIR");
  train
      ->add_option("--interrupt-at-step", o->interrupt_at_step,
                   "stop after step N as an interruption would (for testing resume)")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{1}, kLargest));
  train
      ->add_option("--nproc", o->nproc,
                   "train as N processes on this machine (data parallel: each trains 1/N of "
                   "every batch; the same run as one process, to float rounding); default 1")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(1, 64));
  train
      ->add_option("--dist-timeout", o->dist_timeout,
                   "data parallel: the longest any rank waits for the others, to meet and at each "
                   "step (rank 0's evaluations and checkpoints included); default 1800")
      ->type_name("S")
      ->check(realIn(1, 1e6));
  // A resumed run repeats the interrupted one exactly; these would make it a different run.
  for (CLI::Option* fixed :
       {data, model, preset, out, seed, batch_size, lr, source_lang, target_lang, pieces}) {
    resume->excludes(fixed);
  }
  for (CLI::Option* fixed : held_out) resume->excludes(fixed);
  resume->excludes(train->get_option("--task"));

  return {train, [o, args] {
            // A rank of a job started by torchrun, by hand or by --nproc below.
            Expected<std::optional<JobRank>> job = jobRankFromEnvironment();
            if (!job.ok()) return usageError(job.error(), "train");
            Expected<TrainingConfig> config = trainingConfigFromOptions(*o);
            if (!config.ok()) return usageError(config.error(), "train");
            if (*job) {
              if (o->nproc && *o->nproc != (*job)->world_size) {
                return usageError("--nproc " + std::to_string(*o->nproc) + " but WORLD_SIZE is " +
                                      std::to_string((*job)->world_size) +
                                      ": a rank of a job takes the job's size from WORLD_SIZE",
                                  "train");
              }
              if (o->dist_timeout) (*job)->timeout_s = *o->dist_timeout;
              return trainAndReport(*config, **job);
            }
            if (o->nproc.value_or(1) > 1) {
              return trainOnLocalRanks(args, *o->nproc, o->threads.has_value());
            }
            return trainAndReport(*config);
          }};
}

}  // namespace ascope::cli
