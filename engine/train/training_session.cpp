#include "engine/train/training_session.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/train/tensor_threads.h"

#include "engine/core/cpu_runtime.h"

#include <ATen/Parallel.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>
#include <torch/cuda.h>
#include <torch/utils.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/analysis/head_statistics.h"
#include "engine/datasets/epoch_batches.h"
#include "engine/device/device_query.h"
#include "engine/device/host_read.h"
#include "engine/device/host_wait_region.h"
#include "engine/distributed/job_fault.h"
#include "engine/runfolder/calibration/calibration_file.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/train/autocast_scope.h"
#include "engine/train/evaluation_lines.h"
#include "engine/train/event_queue_sink.h"
#include "engine/train/final_calibration.h"
#include "engine/train/final_test.h"
#include "engine/train/model_weights_copy.h"
#include "engine/train/optim/gradient_clipping.h"
#include "engine/train/optim/gradient_release.h"
#include "engine/train/optim/learning_rate_schedule.h"
#include "engine/train/optim/optimizer_factory.h"
#include "engine/train/resume_checkpoint.h"
#include "engine/train/training_faults.h"
#include "engine/vocabulary/learning_rate_bounds.h"

namespace ascope {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

TrainingSession::TrainingSession(TrainingHost& host, TrainingConfig config,
                                 std::optional<JobRank> job)
    : host_(host), config_(std::move(config)), job_(std::move(job)) {
  std::vector<spdlog::sink_ptr> sinks{std::make_shared<EventQueueSink>(host_.events())};
  logger_ = std::make_shared<spdlog::logger>("trainer", sinks.begin(), sinks.end());
  logger_->set_pattern("%H:%M:%S %v");
  logger_->flush_on(spdlog::level::info);  // log.txt must be complete if the process dies
  // spdlog's default prints "[*** LOG ERROR ***]" to stderr for every line that log.txt (a full
  // disk) refuses; said once instead, in the words of the rest of the log, and training goes on.
  logger_->set_error_handler([this](const std::string& message) {
    if (log_error_said_.exchange(true)) return;
    host_.events().pushLog(
        {Severity::kWarning, (folder_ ? folder_->logPath() : std::string("log.txt")) +
                                 ": cannot write (" + message +
                                 "); the log goes on in the window, not in the file"});
  });
}

TrainingSession::~TrainingSession() {
  logger_->flush();
  if (!prepared_ && writer_) {
    // A start that failed (an error or an exception from loading data or building the model)
    // must not leave a half-made run behind: a config.json without a checkpoint makes --out
    // refuse the folder and --resume fail.
    auto& sinks = logger_->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), log_file_), sinks.end());
    log_file_.reset();  // closes log.txt, which goes with the rest
    writer_->discardNewRun();
  }
}

void TrainingSession::log(Severity level, const std::string& text) {
  logger_->log(static_cast<spdlog::level::level_enum>(level), text);
}

bool TrainingSession::goOn() {
  LiveChanges changes;
  const bool go_on = host_.awaitNextBatch(changes);
  if (changes.learning_rate) setLearningRate(*changes.learning_rate);
  if (changes.probe_sample) setProbeSample(*changes.probe_sample);
  return go_on;
}

void TrainingSession::setLearningRate(double lr) {
  if (!isAcceptedLearningRate(lr)) {
    log(Severity::kWarning,
        fmt::format("learning rate {} refused: like the lr setting it must be in (0, {})", lr,
                    kMaxLearningRate));
    return;
  }
  const LearningRateChange change{progress_.step + 1, lr, currentLearningRate()};
  lr_override_ = lr;
  log(Severity::kInfo,
      fmt::format("learning rate {:.4g} from step {} on (was {:.4g}); it replaces the schedule",
                  change.lr, change.step, change.previous_lr));
  events_.onLearningRateChange(change);
}

Status TrainingSession::restoreLearningRate() {
  if (!config_.resume) return {};
  Expected<LearningRateChanges> kept = readLearningRateChanges(folder_->path());
  if (!kept.ok()) return Error{kept.error()};
  if (!kept->changes.empty()) {
    lr_override_ = kept->changes.back().lr;
    log(Severity::kInfo, fmt::format("learning rate {:.4g} as set at step {}", *lr_override_,
                                     kept->changes.back().step));
  }
  return {};
}

void TrainingSession::setProbeSample(int index) {
  config_.probe_samples.front() = index;
  if (schedule_) schedule_->probeAtOnce();  // show the new sample at the next batch
}

Status TrainingSession::prepare() {
  if (config_.device == "cuda") {
    if (!torch::cuda::is_available()) return Error{"device cuda requested but " + noCudaReason()};
    // A rank of a job on a GPU server takes the GPU of its rank on the machine.
    device_ = job_ ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(job_->local_rank))
                   : torch::Device(torch::kCUDA);
  }
  useTensorThreads(static_cast<int>(config_.threads));
  if (job_) {
    // First: the ranks other than 0 train with rank 0's settings from here on.
    Expected<std::unique_ptr<DataParallelTraining>> joined =
        DataParallelTraining::join(*job_, device_, config_);
    if (!joined.ok()) return Error{joined.error()};
    parallel_ = std::move(*joined);
  }
  const std::string threads_note = tensorThreadsNote(static_cast<int>(config_.threads));
  torch::manual_seed(config_.seed);

  // The folder is locked first, so that a second writer is refused before it loads anything.
  if (leads()) {
    if (Status s = openRunFolder(); !s.ok()) return s;
  }
  if (!threads_note.empty()) log(Severity::kWarning, threads_note);
  if (device_.is_cpu()) {
    // Step speed depends on these; worth a line when comparing timings. (Already applied by the
    // programs' main(); repeated for other hosts of a session, such as tests.)
    log(Severity::kInfo, tuneCpuRuntime().text(at::get_num_threads()));
  }

  Expected<const TaskDescriptor*> descriptor = findTask(config_.task);
  if (!descriptor.ok()) return Error{descriptor.error()};
  descriptor_ = *descriptor;
  std::vector<std::string> warnings;
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(config_, device_, &warnings);
  for (const std::string& w : warnings) log(Severity::kWarning, w);
  if (!task.ok() && config_.resume && folder_) {
    // A run folder is untrusted: say which of its settings pointed where.
    return Error{"with the settings of " + folder_->configPath() + " (\"data\": \"" + config_.data +
                 "\"): " + task.error()};
  }
  if (!task.ok()) return Error{task.error()};
  task_ = std::move(*task);
  log(Severity::kInfo, task_->describe());
  const SplitOrigins origins = task_->splitOrigins();
  if (!origins.validation.empty()) log(Severity::kInfo, "validation split: " + origins.validation);
  log(Severity::kInfo,
      "test split: " + (origins.test.empty() ? std::string("none") : origins.test));
  optimizer_ = makeOptimizer(task_->model(), config_.optimization);

  const int64_t train_size = task_->trainSize();
  if (train_size <= 0) return Error{config_.data + ": no training samples"};
  // Not (size + batch - 1) / batch: that overflows for a batch size near 2^63.
  batches_per_epoch_ = train_size / config_.batch_size + (train_size % config_.batch_size != 0);
  if (config_.max_steps > 0) {
    total_steps_ = config_.max_steps;
  } else if (__builtin_mul_overflow(batches_per_epoch_, int64_t{config_.epochs}, &total_steps_)) {
    return Error{
        fmt::format("{} epochs of {} steps are too many", config_.epochs, batches_per_epoch_)};
  }
  schedule_.emplace(ProbeSchedule::Cadence{config_.probe_every_steps, config_.probe_every_seconds,
                                           config_.probe_time_share},
                    total_steps_);

  if (leads()) {
    if (Status s = continueFromCheckpoint(); !s.ok()) return s;
    if (Status s = startRecording(); !s.ok()) return s;
  }
  if (parallel_) {
    std::string run_dir = folder_ ? folder_->path() : std::string();
    try {
      parallel_->shareState(task_->model(), *optimizer_, progress_, lr_override_, run_dir);
    } catch (const JobFault& fault) {
      return Error{fault.what()};
    }
    log(Severity::kInfo,
        fmt::format("{}: trains its share of each batch of {} from step {}{}",
                    describeJobRank(parallel_->job()), config_.batch_size, progress_.step,
                    leads() ? "" : "; rank 0 writes the run folder " + run_dir));
  }
  if (recorder_) events_.add(*recorder_);
  events_.add(host_.events());
  prepared_ = true;
  if (folder_) host_.runFolderReady(folder_->path());
  return {};
}

Status TrainingSession::openRunFolder() {
  Expected<RunFolderWriter> writer =
      config_.resume ? RunFolderWriter::openForResume(config_.out_dir)
                     : RunFolderWriter::createNew(config_.out_dir, config_.task);
  if (!writer.ok()) return Error{writer.error()};
  writer_.emplace(std::move(*writer));
  folder_ = writer_->folder();
  try {
    log_file_ = std::make_shared<spdlog::sinks::basic_file_sink_mt>(folder_->logPath());
  } catch (const std::exception& e) {
    return Error{folder_->logPath() + ": cannot write: " + e.what()};
  }
  logger_->sinks().push_back(log_file_);
  log(Severity::kInfo,
      std::string(config_.resume ? "resuming run " : "new run ") + folder_->path());
  return {};
}

Status TrainingSession::continueFromCheckpoint() {
  if (config_.resume) {
    // Before any file of the run changes: a checkpoint that does not fit leaves them as they were.
    Expected<ResumePoint> resumed =
        loadResumeCheckpoint(*folder_, task_->model(), optimizer_.get());
    if (!resumed.ok()) return Error{resumed.error()};
    for (const std::string& w : resumed->warnings) log(Severity::kWarning, w);
    progress_ = resumed->progress;
    if (progress_.step > 0)
      log(Severity::kInfo, "continuing after step " + std::to_string(progress_.step));
  }
  return {};
}

Status TrainingSession::startRecording() {
  // On resume too: a run extended with more epochs or steps says so in its config.
  if (Status s = folder_->writeConfig(config_); !s.ok()) return s;
  if (Status s = task_->saveArtifacts(folder_->path()); !s.ok()) return s;
  RunRecording recording;
  recording.resume = config_.resume;
  recording.resume_step = progress_.step;
  recording.head_statistics = config_.head_statistics;
  for (const MetricInfo& m : descriptor_->trackedMetrics()) recording.figure_keys.push_back(m.key);
  // A dense timeline on steps every run of this length shares: at least 100 sets.
  recording.snapshot_spacing = config_.snapshot_every_steps > 0
                                   ? config_.snapshot_every_steps
                                   : SnapshotStore::spacingFor(total_steps_);
  recording.snapshot_budget_bytes = static_cast<std::uint64_t>(config_.snapshot_budget_mb) << 20;
  recording.total_steps = total_steps_;
  Expected<RunRecorder> recorder =
      RunRecorder::open(*folder_, recording,
                        [this](const std::string& message) { log(Severity::kWarning, message); });
  if (!recorder.ok()) return Error{recorder.error()};
  recorder_.emplace(std::move(*recorder));
  return restoreLearningRate();
}

double TrainingSession::currentLearningRate() const {
  if (lr_override_) return *lr_override_;
  return learningRateAt(config_.optimization, progress_.step, total_steps_);
}

void TrainingSession::reportFault(const std::string& message) {
  log(Severity::kError, message);
  host_.events().pushFailure({progress_.step, message});
  host_.pauseAfterFault();  // the GUI pauses; the CLI (stop_on_nonfinite) stops instead
}

int64_t TrainingSession::readEvery() const {
  if (config_.read_figures_every_steps > 0) return config_.read_figures_every_steps;
  // A CPU has nothing queued: reading there costs nothing, and each step's NaN is caught before
  // its update. A GPU would wait for the queue at every read.
  return device_.is_cpu() ? 1 : kGpuReadEvery;
}

TrainingSession::StepResult TrainingSession::trainStep(const std::vector<int64_t>& indices,
                                                       int epoch) {
  // What waits for the device in here is counted as the step's (tests keep it at none); reading
  // the step's figures is counted apart, as "step figures".
  const HostWaitRegion region(kTrainingStepRegion);
  const auto t0 = Clock::now();
  // schedule — one seed per step makes dropout and augmentation repeatable on resume
  torch::manual_seed(config_.seed * 1000003ULL + static_cast<uint64_t>(progress_.step));
  const double lr = currentLearningRate();
  for (auto& group : optimizer_->param_groups()) group.options().set_lr(lr);

  // forward
  releaseGradients(*optimizer_);
  std::optional<AutocastScope> autocast;
  if (config_.bf16 && device_.is_cuda()) autocast.emplace();
  BatchOutcome out =
      parallel_ ? parallel_->trainShard(*task_, indices) : task_->trainBatch(indices);
  autocast.reset();
  if (config_.inject_nan_at_step == progress_.step + 1) out.loss = out.loss * NAN;
  if (!out.correct.defined()) out.correct = torch::zeros({}, out.loss.options());
  if (!out.counted.defined()) out.counted = torch::zeros({}, out.loss.options());

  // Read now (every step, or a rank of a job, whose all-reduce needs the figures on the host): a
  // non-finite loss skips its batch before the update. Read later: the figures wait on the device
  // and the host goes on queueing steps (flushStepFigures).
  std::optional<HostStepFigures> now;
  if (parallel_ || readEvery() == 1) {
    const HostWaitRegion reading(kStepFiguresRegion);
    const std::vector<double> read = readToHost({out.loss, out.correct, out.counted});
    now = HostStepFigures{read[0], read[1], read[2], out.samples};
    if (!std::isfinite(now->loss) && !parallel_) {
      // The batch is skipped, so that resuming moves on instead of repeating the same NaN.
      ++progress_.step;
      return StepResult::kNonFinite;
    }
  }

  // backward, clip, step; a rank of a job clips and steps with the whole batch's gradients, and
  // the whole batch's loss decides for every rank alike
  if (parallel_) {
    parallel_->backwardAndReduce(out, *now);
    if (!std::isfinite(now->loss)) {
      ++progress_.step;
      return StepResult::kNonFinite;
    }
  } else {
    out.loss.backward();
  }
  if (config_.optimization.grad_clip > 0) {
    clipGradientNorm(task_->model().parameters(), config_.optimization.grad_clip);
  }
  optimizer_->step();
  ++progress_.step;

  // metrics: loss and accuracy now or at the next read
  const double seconds = std::max(1e-9, secondsSince(t0));
  if (parallel_) parallel_->countStep(seconds);
  StepMetrics m;
  m.step = progress_.step;
  m.epoch = epoch;
  m.lr = lr;
  m.total_steps = total_steps_;
  m.elapsed_s = secondsSince(started_);
  const double steps_per_s = (progress_.step - steps_at_start_) / std::max(1e-9, m.elapsed_s);
  m.eta_s = steps_per_s > 0 ? (total_steps_ - progress_.step) / steps_per_s : 0;
  if (now) {
    m.loss = now->loss;
    m.accuracy = now->counted > 0 ? now->correct / now->counted : 0;
    reportStep(m, now->correct, now->counted, now->samples, seconds);
  } else {
    pending_.add(m, out.loss, out.correct, out.counted, out.samples, seconds);
  }
  return StepResult::kOk;
}

void TrainingSession::reportStep(StepMetrics m, double correct, double counted, int64_t samples,
                                 double seconds) {
  const double rate = static_cast<double>(samples) / std::max(1e-9, seconds);
  samples_per_s_ = samples_per_s_ == 0 ? rate : 0.9 * samples_per_s_ + 0.1 * rate;
  train_figures_.add(m.loss, correct, counted);
  m.samples_per_s = samples_per_s_;
  events_.onStep(m);
}

bool TrainingSession::flushStepFigures() {
  if (pending_.empty()) return true;
  const PendingStepFigures::Read read = [this] {
    const HostWaitRegion reading(kStepFiguresRegion);
    return pending_.read();
  }();
  for (const PendingStepFigures::Step& s : read.steps) {
    if (read.first_non_finite_step && s.metrics.step >= *read.first_non_finite_step) break;
    reportStep(s.metrics, s.correct, s.counted, s.samples, s.seconds);
  }
  if (!read.first_non_finite_step) return true;
  // Found late: the steps after it have already updated the weights with it. They are not kept.
  const int64_t bad = *read.first_non_finite_step;
  const std::string message = fmt::format(
      "loss is not finite at step {} (read at step {}: the figures are read every {} steps on "
      "this device): training stopped, and the weights of steps {} to {} are not kept; the last "
      "checkpoint written before is the last good one. Try a lower learning rate (now {:.3g}) or "
      "gradient clipping, or read_figures_every_steps 1 to skip such a batch instead.",
      bad, progress_.step, readEvery(), bad, progress_.step, currentLearningRate());
  log(Severity::kError, message);
  host_.events().pushFailure({bad, message});
  weights_spoilt_ = true;
  return false;
}

void TrainingSession::probe() {
  ProbeSet probes;
  probes.step = progress_.step;
  {
    ProbeTimer timer(probe_cost_.attention_s);
    probes.samples = task_->probeSamples(config_.probe_samples);
  }
  if (generationDue(probes)) {
    const Clock::time_point start = Clock::now();
    {
      ProbeTimer timer(probe_cost_.predictions_s);
      for (SamplePrediction& p : task_->generatePredictions(config_.probe_samples)) {
        p.step = progress_.step;
        generated_[p.sample_index] = std::move(p);
      }
    }
    ++probe_cost_.generated;
    schedule_->generated(progress_.step, start, Clock::now());
  }
  for (AttentionSnapshot& snapshot : probes.samples) {
    snapshot.step = progress_.step;
    if (snapshot.sample) {
      snapshot.sample->step = progress_.step;
    } else if (auto made = generated_.find(snapshot.sample_index); made != generated_.end()) {
      snapshot.sample = made->second;  // with the step it was made at
    }
  }
  PositionalEncodingSnapshot pe;
  {
    ProbeTimer timer(probe_cost_.encoding_s);
    pe = task_->positionalEncoding();
  }
  pe.step = progress_.step;
  if (config_.head_statistics) {
    ProbeTimer timer(probe_cost_.statistics_s);
    recordHeadStatistics(probes);
  }
  ProbeTimer timer(probe_cost_.recording_s);
  // A stored step shows every dock as it was then, the encoding included.
  if (!probes.samples.empty()) probes.samples.front().positional_encoding = pe;
  events_.onProbe(std::make_shared<const ProbeSet>(std::move(probes)), pe);
}

void TrainingSession::recordHeadStatistics(const ProbeSet& probes) {
  // About 1,000 points per run make a smooth sparkline; more only make head_stats.csv long (a
  // six-layer translator writes some 40 KB per probe).
  const int64_t spacing = std::max<int64_t>(1, total_steps_ / 1000);
  if (last_statistics_step_ >= 0 && probes.step - last_statistics_step_ < spacing &&
      probes.step != total_steps_) {
    return;
  }
  last_statistics_step_ = probes.step;
  HeadStatisticsUpdate update;
  update.step = probes.step;
  update.values = headStatistics(probes.samples, descriptor_->special_tokens);
  update.changes = head_kinds_.observe(probes.step, update.values);
  for (const HeadKindChange& change : update.changes) log(Severity::kInfo, change.text);
  events_.onHeadStatistics(update);
}

bool TrainingSession::evaluateAndReport(int epoch) {
  if (!leads()) return true;
  const auto t0 = Clock::now();
  const EvaluationOutcome e = [this] {
    const HostWaitRegion region(kValidationRegion);
    return task_->evaluate(DataSplit::kValidation, config_.eval_max_samples,
                           FigureSamples::kAsSettingsSay);
  }();
  const EpochSummary s =
      epochSummary(epoch, progress_.step, train_figures_, e, currentLearningRate());
  last_val_accuracy_ = e.accuracy;
  train_figures_.reset();
  events_.onEpoch(s);
  log(Severity::kInfo, epochLine(s, descriptor_->metrics, secondsSince(t0)));
  if (s.val_accuracy > progress_.best_val_accuracy) {
    progress_.best_val_accuracy = s.val_accuracy;
    return checkpoint("best");
  }
  return true;
}

void TrainingSession::testOnTestSplit() {
  // A resumed run that was already complete trained nothing: its figure is in metrics.csv.
  if (!leads() || progress_.step == steps_at_start_) return;
  scoreWeightAverage();
  const auto t0 = Clock::now();
  TestEvaluation t;
  t.epoch = static_cast<int>(std::min<int64_t>((progress_.step - 1) / batches_per_epoch_ + 1,
                                               std::numeric_limits<int>::max()));
  t.step = progress_.step;
  t.origin = task_->splitOrigins().test;
  if (task_->testSize() <= 0) {
    // Reusing the validation split would report the data the best weights were chosen on.
    t.split = "none";
    t.weights_step = t.step;
    events_.onTest(t);
    log(Severity::kInfo,
        "no test split: the data has none of its own and splits.test_fraction is 0 (or the task "
        "generates none), so this run has no test figure; its validation figures are above");
    calibrateFinalWeights();
    return;
  }
  if (config_.splits.layout == 1) t.split = "validation";
  if (!survivesOutOfMemory("the final test on the test split", [&] { evaluateTestSplit(t); })) {
    return;
  }
  t.seconds = secondsSince(t0);
  t.lr = currentLearningRate();
  events_.onTest(t);
  log(Severity::kInfo, testLine(t, descriptor_->metrics));
  calibrateFinalWeights();
}

bool TrainingSession::averagesThisStep() const {
  const int64_t epochs = config_.optimization.average_last_epochs;
  if (epochs <= 0 || !leads()) return false;
  // The window ends at the planned last step; a run stopped early by its time limit averages
  // whatever part of the window it reached.
  const int64_t window = std::min(total_steps_, epochs * batches_per_epoch_);
  return progress_.step > total_steps_ - window;
}

void TrainingSession::scoreWeightAverage() {
  if (!average_ || average_->count() < 2 || weights_spoilt_ || !folder_) return;
  const auto t0 = Clock::now();
  survivesOutOfMemory("scoring the averaged weights on the validation split", [&] {
    const ModelWeightsCopy final_weights(task_->model());
    EvaluationOutcome e;
    try {
      average_->copyInto(task_->model());
      const HostWaitRegion region(kValidationRegion);
      e = task_->evaluate(DataSplit::kValidation, config_.eval_max_samples,
                          FigureSamples::kAsSettingsSay);
    } catch (...) {
      final_weights.restoreInto(task_->model());
      throw;
    }
    // Chosen on the validation split as every best.pt is: the test split still judges once.
    const double best_before = progress_.best_val_accuracy;
    bool written = false;
    if (e.accuracy > best_before) {
      progress_.best_val_accuracy = e.accuracy;                 // saved with the weights
      written = checkpoint("best");                             // a failure is reported as a fault
      if (!written) progress_.best_val_accuracy = best_before;  // best.pt is still the epoch's
    }
    final_weights.restoreInto(task_->model());
    log(Severity::kInfo, averageLine(average_->count(), progress_.step, e, best_before, written,
                                     descriptor_->metrics, secondsSince(t0)));
  });
}

void TrainingSession::calibrateFinalWeights() {
  if (descriptor_->sample_terms.free_text || !folder_) return;
  const auto t0 = Clock::now();
  Expected<RunCalibration> calibration = Error{""};
  const bool survived = survivesOutOfMemory("the calibration on the validation split", [&] {
    // The weights `evaluate` and `infer` answer with (best.pt, else the last ones), whatever the
    // final test chose: a temperature is only applied to the weights it was fitted to.
    withFinalWeights(
        *task_, {"best", folder_->checkpointPath("best"), std::nullopt, /*prefer_best=*/true},
        progress_.step,
        [this](const std::string& text) {
          log(Severity::kWarning, text + "; the calibration is fitted to the last weights");
        },
        [&](std::int64_t weights_step, bool) {
          calibration = calibrateWeights(*task_, weights_step);
        });
  });
  if (!survived) return;
  if (!calibration.ok()) {
    log(Severity::kWarning, "no calibration: " + calibration.error() +
                                "; the run's answers keep the model's own probabilities");
    return;
  }
  if (Status s = writeCalibration(folder_->path(), *calibration); !s.ok()) {
    log(Severity::kWarning, "no calibration: " + s.error());
    return;
  }
  log(Severity::kInfo,
      fmt::format("{} in {:.2f} s", calibrationLine(*calibration), secondsSince(t0)));
}

void TrainingSession::evaluateTestSplit(TestEvaluation& t) {
  evaluateWithFinalWeights(
      *task_, {config_.final_weights, folder_->checkpointPath("best"), last_val_accuracy_}, t,
      [this](const std::string& text) { log(Severity::kWarning, text); });
}

bool TrainingSession::checkpoint(const char* name) {
  if (!leads()) return true;
  // Never the weights of a step whose loss was not finite, found now or before.
  if (!flushStepFigures() || weights_spoilt_) return false;
  const Status s =
      saveCheckpoint(folder_->checkpointPath(name), task_->model(), optimizer_.get(), progress_);
  if (s.ok()) {
    if (parallel_ && std::string(name) == "last") parallel_->noteCheckpoint(progress_.step);
    return true;
  }
  reportFault(checkpointFailureMessage(s.error(), progress_.step, name));
  return false;
}

std::string TrainingSession::outOfMemoryHere(const char* phase) const {
  return outOfMemoryMessage(phase, progress_.step + 1, config_.batch_size);
}

template <typename Work>
bool TrainingSession::survivesOutOfMemory(const char* phase, Work&& work) {
  try {
    work();
    return true;
  } catch (const std::exception& e) {
    if (!isOutOfMemoryError(e)) throw;
    reportFault(outOfMemoryHere(phase));
    return false;
  }
}

bool TrainingSession::probeSafely() {
  if (!leads()) return true;
  // A probe that failed is not retried at once: the next one comes at the usual cadence.
  schedule_->probeBegan(progress_.step, Clock::now());
  const bool ok = survivesOutOfMemory("the attention probe", [&] { probe(); });
  schedule_->probeEnded(Clock::now());
  ++probe_cost_.probes;
  return ok;
}

bool TrainingSession::generationDue(const ProbeSet& probes) const {
  bool never_made = false, missing = false;
  for (const AttentionSnapshot& s : probes.samples) {
    if (s.sample) continue;
    missing = true;
    never_made = never_made || generated_.count(s.sample_index) == 0;
  }
  return schedule_->generationDue(progress_.step, never_made, missing, Clock::now());
}

bool TrainingSession::probeDue() const {
  return schedule_->probeDue(progress_.step, recorder_ && recorder_->snapshotDue(progress_.step),
                             Clock::now());
}

TrainerState TrainingSession::run() {
  const TrainerState state = trainUntilTheEnd();
  // However the run ended, its timeline is on disk before anyone hears that it did.
  if (recorder_) recorder_->snapshots().flush();
  return state;
}

TrainerState TrainingSession::trainUntilTheEnd() {
  started_ = Clock::now();
  schedule_->start(started_);
  steps_at_start_ = progress_.step;
  // Something to look at before the first step.
  if (!probeSafely() && config_.stop_on_nonfinite) return TrainerState::kFailed;
  std::vector<std::vector<int64_t>> batches;  // of epoch `batches_epoch`, cut once per epoch
  int batches_epoch = 0;
  while (progress_.step < total_steps_) {
    const int epoch = static_cast<int>(std::min<int64_t>(progress_.step / batches_per_epoch_ + 1,
                                                         std::numeric_limits<int>::max()));
    const int64_t batch_in_epoch = progress_.step % batches_per_epoch_;
    // The batches of an epoch depend only on (seed, epoch): a resumed run sees the same ones.
    if (epoch != batches_epoch) {
      batches = epochBatches(
          task_->trainSize(), config_.batch_size, config_.seed, epoch,
          config_.bucket_by_length ? task_->trainingLengths() : std::vector<int64_t>{});
      batches_epoch = epoch;
    }
    if (std::optional<TrainerState> stopped = stopIfAsked()) return *stopped;
    StepResult result = StepResult::kOk;
    try {
      result = trainStep(batches[static_cast<std::size_t>(batch_in_epoch)], epoch);
    } catch (const JobFault& fault) {
      return endAfterJobFault(fault.what());
    } catch (const std::exception& e) {
      if (!isOutOfMemoryError(e)) throw;
      result = StepResult::kOutOfMemory;
    }
    if (result != StepResult::kOk) {
      reportStepFault(result);
      if (config_.stop_on_nonfinite) return TrainerState::kFailed;
      continue;
    }
    if (std::optional<TrainerState> ended = afterStep(epoch)) return *ended;
  }
  return finishRun();
}

std::optional<TrainerState> TrainingSession::stopIfAsked() {
  const bool go_on = goOn();
  if (parallel_) {
    // Every rank of a job stops after the same step: the votes travel with its all-reduce (the
    // step's end reads them, afterStep).
    parallel_->vote(!go_on,
                    config_.max_seconds > 0 && secondsSince(started_) >= config_.max_seconds);
    return std::nullopt;
  }
  if (go_on) return std::nullopt;
  if (!checkpoint("last")) return TrainerState::kFailed;
  log(Severity::kInfo,
      "stopped at step " + std::to_string(progress_.step) + "; checkpoint written");
  return TrainerState::kStopped;
}

void TrainingSession::reportStepFault(StepResult result) {
  reportFault(result == StepResult::kNonFinite
                  ? nonFiniteLossMessage(progress_.step, currentLearningRate())
                  : outOfMemoryHere("the training step"));
}

std::optional<TrainerState> TrainingSession::afterStep(int epoch) {
  if (parallel_ && parallel_->stopAgreed()) {
    if (!checkpoint("last")) return TrainerState::kFailed;
    log(Severity::kInfo, "stopped at step " + std::to_string(progress_.step) +
                             " (a rank of the job was asked to stop); checkpoint written");
    return TrainerState::kStopped;
  }
  const bool epoch_end = progress_.step % batches_per_epoch_ == 0 || progress_.step == total_steps_;
  const bool evaluation_due =
      epoch_end || (config_.eval_every_steps > 0 && progress_.step % config_.eval_every_steps == 0);
  // The figures waiting on the device are read at the cadence, and before anything that judges
  // or keeps the weights or waits for a person: every such thing sees complete curves, and no
  // weights of a non-finite step are kept. (Probes only look at the model.)
  if (!pending_.empty() &&
      (pending_.size() >= static_cast<std::size_t>(readEvery()) || evaluation_due ||
       progress_.step % config_.checkpoint_every_steps == 0 ||
       progress_.step == config_.interrupt_at_step || timeIsUp() || host_.commandWaiting()) &&
      !flushStepFigures()) {
    return TrainerState::kFailed;
  }
  if (averagesThisStep()) {
    if (!average_) average_.emplace();
    average_->add(task_->model());
  }
  bool healthy = true;
  if (probeDue()) healthy = probeSafely();
  if (healthy && evaluation_due) {
    bool best_written = true;
    healthy = survivesOutOfMemory("validation", [&] { best_written = evaluateAndReport(epoch); });
    healthy = healthy && best_written;
  }
  if (epoch_end || progress_.step % config_.checkpoint_every_steps == 0) {
    healthy = checkpoint("last") && healthy;
  }
  if (!healthy && config_.stop_on_nonfinite) return TrainerState::kFailed;
  if (config_.interrupt_at_step > 0 && progress_.step == config_.interrupt_at_step) {
    if (!checkpoint("last")) return TrainerState::kFailed;
    log(Severity::kInfo, "interrupted at step " + std::to_string(progress_.step) + " as asked");
    return TrainerState::kStopped;
  }
  if (timeIsUp()) {
    if (!checkpoint("last")) return TrainerState::kFailed;
    log(Severity::kInfo, fmt::format("time limit of {:.0f} s reached at step {}",
                                     config_.max_seconds, progress_.step));
    if (!epoch_end) survivesOutOfMemory("validation", [&] { evaluateAndReport(epoch); });
    testOnTestSplit();
    return TrainerState::kFinished;
  }
  return std::nullopt;
}

TrainerState TrainingSession::finishRun() {
  if (schedule_->lastProbeStep() != progress_.step) probeSafely();  // unless just probed
  if (parallel_) log(Severity::kInfo, parallel_->summary());
  const double seconds = secondsSince(started_);
  if (recorder_) recorder_->snapshots().flush();
  log(Severity::kInfo,
      fmt::format(
          "finished: {} steps in {:.2f} s ({} probes took {:.2f} s, {:.1f} % of the run: {}; "
          "{} snapshots stored, written in {:.2f} s on a thread of their own)",
          progress_.step, seconds, probe_cost_.probes, probe_cost_.total(),
          100.0 * probe_cost_.total() / std::max(1e-9, seconds), probe_cost_.text(),
          recorder_ ? recorder_->snapshots().count() : 0,
          recorder_ ? recorder_->snapshots().busySeconds() : 0.0));
  testOnTestSplit();
  return TrainerState::kFinished;
}

bool TrainingSession::timeIsUp() const {
  if (parallel_) return parallel_->timeUpAgreed();
  return config_.max_seconds > 0 && secondsSince(started_) >= config_.max_seconds;
}

TrainerState TrainingSession::endAfterJobFault(const std::string& fault) {
  std::string kept;
  if (leads()) {
    // The failed all-reduce came before the optimizer step: the weights and optimizer state are
    // those of the last complete step, worth keeping.
    if (progress_.step > parallel_->lastCheckpointStep() && checkpoint("last")) {
      kept = fmt::format("rank 0 wrote {} at step {}", folder_->checkpointPath("last"),
                         progress_.step);
    } else if (parallel_->lastCheckpointStep() >= 0) {
      kept = fmt::format("the last complete checkpoint is {} (step {})",
                         folder_->checkpointPath("last"), parallel_->lastCheckpointStep());
    }
  } else if (parallel_->lastCheckpointStep() >= 0) {
    kept = fmt::format(
        "the last complete checkpoint rank 0 reported is {}/checkpoints/last.pt "
        "(step {})",
        parallel_->runDir(), parallel_->lastCheckpointStep());
  }
  const std::string message = jobFaultMessage(fault, kept, parallel_->runDir());
  log(Severity::kError, message);
  host_.events().pushFailure({progress_.step, message});
  return TrainerState::kFailed;
}

}  // namespace ascope
