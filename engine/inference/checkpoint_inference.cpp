#include "engine/inference/checkpoint_inference.h"

#include <torch/cuda.h>
#include <torch/utils.h>

#include <exception>
#include <filesystem>
#include <memory>
#include <utility>

#include "engine/core/regular_file.h"
#include "engine/datasets/image_folder_reader.h"
#include "engine/inference/run_model.h"
#include "engine/inference/run_temperature.h"
#include "engine/models/translator_config.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/run_reader.h"
#include "engine/scoring/temperature_scaling.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/task.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/checkpoint.h"
#include "engine/vocabulary/events.h"

namespace ascope {
namespace {

/// The run's checkpoints that exist, the one `choice` prefers first.
std::vector<std::string> existingCheckpoints(const std::string& run_dir, CheckpointChoice choice) {
  return ascope::existingCheckpoints(run_dir, choice == CheckpointChoice::kBest ? "best" : "last");
}

/// `image` with `patch` occluded on the grid `task`'s model reads (none: occludePatch says so).
Expected<ImageBuffer> occludedForModel(const ImageBuffer& image, const Task& task, int patch) {
  return occludePatch(image, task.patchGrid().value_or(PatchGrid{}), patch);
}

}  // namespace

Expected<ImageBuffer> decodeImageForRun(const std::string& file, const TrainingConfig& config) {
  Expected<const TaskDescriptor*> task = findTask(config.task);
  if (!task.ok()) return Error{task.error()};
  const int side = (*task)->image_side ? (*task)->image_side(config) : 0;
  if (side <= 0) return Error{"a " + config.task + " run takes text, not an image"};
  Expected<std::vector<std::uint8_t>> pixels = ImageFolderReader::decode(file, side, side);
  if (!pixels.ok()) return Error{pixels.error()};
  return ImageBuffer{side, side, std::move(*pixels)};
}

Expected<RunModel> loadRunModel(const std::string& run_dir, CheckpointChoice choice,
                                const std::string& device,
                                const std::optional<TrainingConfig>& data_config,
                                std::vector<std::string>* warnings, int beam_width) {
  if (device != "cpu" && device != "cuda") {
    return Error{"device must be cpu or cuda, got \"" + device + "\""};
  }
  if (device == "cuda" && !torch::cuda::is_available()) {
    return Error{"device cuda: no CUDA GPU is available"};
  }
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return Error{folder.error()};
  Expected<TrainingConfig> config = readRunConfig(run_dir);
  if (!config.ok()) return Error{config.error()};
  // Tokenizers, class names, pretrained/ and the checkpoints: no FIFO, no link out of the folder.
  if (Status s = checkRunFilesReadable(folder->path()); !s.ok()) return Error{s.error()};
  const std::vector<std::string> checkpoints = existingCheckpoints(run_dir, choice);
  if (checkpoints.empty()) {
    return Error{"no checkpoint yet in " + run_dir +
                 " (one is written at the end of every epoch and when training stops)"};
  }
  // What is there but not a file (a FIFO) is named before the model is built for nothing.
  std::string not_files;
  for (const std::string& checkpoint : checkpoints) {
    const Status s = requireRegularFile(checkpoint);
    if (s.ok()) {
      not_files.clear();
      break;
    }
    not_files += (not_files.empty() ? "" : "; ") + s.error();
  }
  if (!not_files.empty()) return Error{not_files};
  TrainingConfig built = data_config ? *data_config : *config;
  if (beam_width > 0) {
    if (built.task != kTranslationTaskId) {
      return Error{"a beam is for translation runs; " + run_dir + " is a run of " + built.task};
    }
    TranslatorConfig& translator = built.task_settings.as<TranslatorConfig>();
    translator.beam_width = beam_width;
    if (Status s = translator.validate(); !s.ok()) return Error{"--beam: " + s.error()};
  }
  Expected<std::unique_ptr<Task>> task = makeInferenceTask(
      built, folder->path(), torch::Device(device == "cuda" ? torch::kCUDA : torch::kCPU),
      data_config.has_value(), warnings);
  if (!task.ok()) return Error{task.error()};
  // A torn or corrupt checkpoint (a disk that filled up, a copy cut short) should not hide the
  // run's other one: the model is the same, only older or newer.
  Expected<LoadedCheckpoint> loaded = loadFirstCheckpoint(checkpoints, (*task)->model(), nullptr);
  if (!loaded.ok()) return Error{loaded.error()};
  (*task)->model().eval();
  const std::string note = loaded->passed_over.empty() ? std::string()
                                                       : loaded->passed_over + "; answering with " +
                                                             loaded->path + " instead";
  return RunModel{built, std::move(*task), loaded->path, loaded->progress.step, note};
}

std::string chooseCheckpoint(const std::string& run_dir, CheckpointChoice choice) {
  const std::vector<std::string> paths = existingCheckpoints(run_dir, choice);
  return paths.empty() ? std::string() : paths.front();
}

Expected<InferenceAnswer> inferFromCheckpoint(const InferenceRequest& request) {
  // Exceptions from LibTorch stop here (the caller is a worker thread that Qt owns).
  try {
    Expected<RunModel> model = loadRunModel(request.run_dir, request.checkpoint, request.device,
                                            std::nullopt, nullptr, request.beam_width);
    if (!model.ok()) return Error{model.error()};
    torch::NoGradGuard no_grad;
    Expected<InferenceOutcome> outcome = Error{""};
    // The task decides what it reads, so an empty text is refused as empty text.
    const TaskDescriptor* task = TaskRegistry::instance().find(model->config.task);
    const bool reads_images = task != nullptr && task->input == TaskInput::kImage;
    if (!reads_images) {
      if (request.occluded_patch != -1) {
        return Error{"an occluded patch is for a run of an image task; " + request.run_dir +
                     " is a run of " + model->config.task};
      }
      outcome = model->task->inferText(request.text);
    } else {
      Expected<ImageBuffer> image =
          request.image_file.empty()
              ? Expected<ImageBuffer>(
                    ImageBuffer{request.image_width, request.image_height, request.image_planar})
              : decodeImageForRun(request.image_file, model->config);
      if (image.ok() && request.occluded_patch != -1) {
        image = occludedForModel(*image, *model->task, request.occluded_patch);
      }
      if (!image.ok()) return Error{image.error()};
      outcome = model->task->inferImage(*image);
    }
    if (!outcome.ok()) return Error{outcome.error()};
    InferenceAnswer answer;
    answer.task = model->config.task;
    answer.checkpoint = model->checkpoint;
    answer.step = model->step;
    answer.note = model->note;
    answer.label = outcome->label;
    answer.probability = outcome->probability;
    answer.ranking = outcome->ranking;
    if (task != nullptr && !task->sample_terms.free_text && !answer.ranking.empty()) {
      // The probabilities shown are the calibrated ones; the answer itself cannot change.
      const RunTemperature t = runTemperature(request.run_dir, model->step);
      answer.temperature = t.temperature;
      answer.calibration = t.source;
      answer.calibration_warning = t.warning;
      answer.calibration_for_other_weights = t.for_other_weights;
      answer.ranking = temperedRanking(answer.ranking, t.temperature);
      answer.probability = answer.ranking.front().second;
    }
    answer.attention = std::move(outcome->attention);
    answer.attention.step = model->step;
    answer.attention.sample_index = -1;
    if (answer.attention.task.empty()) answer.attention.task = answer.task;
    return answer;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"inference failed: " + what.substr(0, what.find('\n'))};
  }
}

Expected<PositionalEncodingSnapshot> positionalEncodingFromCheckpoint(const std::string& run_dir) {
  try {
    Expected<RunModel> model = loadRunModel(run_dir, CheckpointChoice::kNewest, "cpu");
    if (!model.ok()) return Error{model.error()};
    torch::NoGradGuard no_grad;
    PositionalEncodingSnapshot snapshot = model->task->positionalEncoding();
    snapshot.step = model->step;
    return snapshot;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"reading the positional encoding failed: " + what.substr(0, what.find('\n'))};
  }
}

}  // namespace ascope
