#pragma once
// Everything one run owns on the trainer thread: task, optimizer, run folder, metrics file, logger,
// counters. Trainer (trainer.h) owns the thread and the commands and is this class's
// TrainingHost; this class owns the loop.
#include <torch/optim/optimizer.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <optional>

#include "engine/analysis/head_kind.h"
#include "engine/distributed/job_rank.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/run_recorder.h"
#include "engine/tasks/task.h"
#include "engine/train/checkpoint.h"
#include "engine/train/data_parallel_training.h"
#include "engine/train/event_fan_out.h"
#include "engine/train/host_step_figures.h"
#include "engine/train/pending_step_figures.h"
#include "engine/train/probe_cost.h"
#include "engine/train/probe_schedule.h"
#include "engine/train/training_faults.h"
#include "engine/train/training_figure_sums.h"
#include "engine/train/training_host.h"
#include "engine/train/weight_average.h"
#include "engine/vocabulary/task_descriptor.h"

namespace spdlog {
class logger;
namespace sinks {
class sink;
}
}  // namespace spdlog

namespace ascope {

/// The HostWaitRegions of a session: the training step (forward, backward, update; no wait for the
/// device), the reading of the steps' figures (once per read_figures_every_steps), a validation
/// pass.
inline constexpr const char* kTrainingStepRegion = "training step";
inline constexpr const char* kStepFiguresRegion = "step figures";
inline constexpr const char* kValidationRegion = "validation";

class TrainingSession {
 public:
  /// With `job`, the session is one rank of a data-parallel job (data_parallel_training.h): rank
  /// 0 writes the run folder, the others train their shard of every batch and write nothing.
  TrainingSession(TrainingHost& host, TrainingConfig config, std::optional<JobRank> job = {});
  ~TrainingSession();

  /// Run folder (locked), data, model, optimizer, resume. Errors are for a person; a new run that
  /// fails here leaves its folder as it found it (see ~TrainingSession).
  Status prepare();
  /// The loop; returns the final state (finished, stopped, failed).
  TrainerState run();

  void log(Severity level, const std::string& text);

 private:
  enum class StepResult { kOk, kNonFinite, kOutOfMemory };
  /// run() until one of its ends, without waiting for the timeline's writer: a step after
  /// another, each followed by what is due after it (afterStep), then the end (finishRun).
  TrainerState trainUntilTheEnd();
  /// Between batches: the host's commands; a stop asked for ends the run here (checkpoint
  /// written), a job's ranks vote on it instead.
  std::optional<TrainerState> stopIfAsked();
  /// A step that failed (non-finite loss, out of memory), reported as a fault.
  void reportStepFault(StepResult result);
  /// What is due after a step: the figures read, a probe, a validation pass, a checkpoint, an
  /// interruption or the time limit; the state the run ends in, when it ends here.
  std::optional<TrainerState> afterStep(int epoch);
  /// The last probe, the summary line and the test on the test split.
  TrainerState finishRun();
  /// The folder (locked), log.txt; rank 0 of a job alone.
  Status openRunFolder();
  /// On resume: the newest sound checkpoint (last.pt, else best.pt) into the model and optimizer
  /// (rank 0 of a job alone).
  Status continueFromCheckpoint();
  /// config.json, the task's artifacts, the recorder of metrics and snapshots (rank 0 alone).
  Status startRecording();
  /// Writes the run folder, probes, evaluates: not a rank of a job other than 0.
  bool leads() const { return !parallel_ || parallel_->leads(); }
  /// The time limit (config.max_seconds) has passed; in a job, on some rank.
  bool timeIsUp() const;
  /// A rank of the job is gone or a collective failed: rank 0 keeps the last complete step in
  /// last.pt; every rank ends with a message naming the lost rank and the checkpoint.
  TrainerState endAfterJobFault(const std::string& fault);
  StepResult trainStep(const std::vector<int64_t>& indices, int epoch);
  /// How many steps' figures wait on the device before they are read (read_figures_every_steps;
  /// its default by device).
  int64_t readEvery() const;
  /// One step's figures, read: the running sums, samples/s, the step event.
  void reportStep(StepMetrics m, double correct, double counted, int64_t samples, double seconds);
  /// Reads every pending step's figures (one wait) and reports them; false when one of them had a
  /// non-finite loss: logged and sent as a failure, the run ends and its weights are not kept.
  bool flushStepFigures();
  void probe();
  /// Per-head statistics of the probe set: head_stats.csv, the log (changes of kind), an event.
  void recordHeadStatistics(const ProbeSet& probes);
  /// probe() that reports running out of memory instead of throwing; false when it did.
  bool probeSafely();
  /// A step of the stored timeline (every snapshot spacing, the same steps in every run with the
  /// same length), or the live cadence has come within the probes' time share (ProbeSchedule).
  bool probeDue() const;
  /// Whether this probe also generates the predictions its task leaves out of `probes`.
  bool generationDue(const ProbeSet& probes) const;
  /// Runs `work`; out of memory becomes a fault for a person (false), other errors propagate.
  /// The faults' messages are training_faults.h's.
  template <typename Work>
  bool survivesOutOfMemory(const char* phase, Work&& work);
  /// outOfMemoryMessage at this step and batch size.
  std::string outOfMemoryHere(const char* phase) const;
  /// False when the best checkpoint could not be written (reported).
  bool evaluateAndReport(int epoch);
  /// The end of a run that reached its end: the whole test split, once, with the weights
  /// config.final_weights chooses (event, metrics.csv, log); the model keeps its final weights. A
  /// run whose data has no test split says so (event, log) and has no test figure. Running out of
  /// memory is reported as a fault.
  void testOnTestSplit();
  /// evaluateWithFinalWeights (final_test.h) for this run: the whole test split with
  /// checkpoints/best.pt's weights when they beat the last evaluation's.
  void evaluateTestSplit(TestEvaluation& t);
  /// A classifier's end: the temperature of the final weights fitted on the validation split,
  /// measured there and on the test split, written to calibration.json and logged (issue 56).
  /// A failure is a warning: the run stays finished, its answers at temperature 1.
  void calibrateFinalWeights();
  /// Whether the weights after this step join the average (optimization.average_last_epochs).
  bool averagesThisStep() const;
  /// The end's average of the last epochs' weights scored on the validation split, and written as
  /// best.pt when it beats the best epoch's weights; the model keeps its final weights.
  void scoreWeightAverage();
  /// Writes checkpoints/<name>.pt; a failure (full disk) is reported as a fault: false.
  bool checkpoint(const char* name);
  /// Between batches: commands from the host; false when the run must stop.
  bool goOn();
  void setProbeSample(int index);
  /// A rate sent while the run goes: logged and emitted (learning_rates.csv, the front ends).
  void setLearningRate(double lr);
  /// On resume, the newest rate kept in learning_rates.csv applies again.
  Status restoreLearningRate();
  double currentLearningRate() const;
  void reportFault(const std::string& message);

  TrainingHost& host_;
  TrainingConfig config_;
  std::optional<JobRank> job_;
  std::unique_ptr<DataParallelTraining> parallel_;  ///< set in a data-parallel job
  torch::Device device_{torch::kCPU};
  std::unique_ptr<Task> task_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::optional<RunFolderWriter> writer_;  ///< holds the folder's lock for the whole run
  std::optional<RunFolder> folder_;
  std::shared_ptr<spdlog::sinks::sink> log_file_;
  std::atomic<bool> log_error_said_{false};  // the logger's error handler runs on any thread
  bool prepared_ = false;
  const TaskDescriptor* descriptor_ = nullptr;  ///< the registry's, lives as long as the program
  std::optional<RunRecorder> recorder_;         ///< the run folder's files
  /// Where every event goes, once: the recorder, then the host's event queue.
  EventFanOut events_;
  HeadKindTracker head_kinds_;
  std::shared_ptr<spdlog::logger> logger_;

  TrainingProgress progress_;
  int64_t batches_per_epoch_ = 0;
  int64_t total_steps_ = 0;
  std::optional<double> lr_override_;
  double samples_per_s_ = 0;
  TrainingFigureSums train_figures_;         ///< since the last validation pass
  std::optional<double> last_val_accuracy_;  ///< of the newest evaluation of this session
  int64_t last_statistics_step_ = -1;
  std::chrono::steady_clock::time_point started_;
  /// When to probe and generate (set once the run's length is known, in prepare()).
  std::optional<ProbeSchedule> schedule_;
  /// Predictions the task generates token by token (translations), by validation sample: made
  /// as often as their time share allows, carried with their step by the probes in between.
  std::map<int, SamplePrediction> generated_;
  ProbeCost probe_cost_;  ///< all probes of this session together, part by part
  /// On a GPU: the figures read every this many steps unless read_figures_every_steps says.
  static constexpr int64_t kGpuReadEvery = 25;
  PendingStepFigures pending_;            ///< steps whose figures are still on the device
  std::optional<WeightAverage> average_;  ///< the last epochs' weights, when asked for
  bool weights_spoilt_ = false;  ///< a non-finite loss was found late: no checkpoint from here
  int64_t steps_at_start_ = 0;
};

}  // namespace ascope
