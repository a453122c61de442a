#include "app/gui/checkpoint_inference.h"

#include <torch/utils.h>

#include <exception>
#include <filesystem>
#include <memory>

#include "engine/run/run_folder.h"
#include "engine/tasks/task.h"
#include "engine/train/checkpoint.h"
#include "engine/train/events.h"

namespace ascope {
namespace {

struct LoadedModel {
  TrainingConfig config;
  std::unique_ptr<Task> task;
  std::string checkpoint;
  std::int64_t step = 0;
};

Expected<LoadedModel> loadModel(const std::string& run_dir) {
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  if (!folder.ok()) return Error{folder.error()};
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return Error{config.error()};
  const std::string checkpoint = latestCheckpoint(run_dir);
  if (checkpoint.empty()) {
    return Error{"no checkpoint yet in " + run_dir +
                 " (one is written at the end of every epoch and when training stops)"};
  }
  Expected<std::unique_ptr<Task>> task =
      makeInferenceTask(*config, folder->path(), torch::Device(torch::kCPU));
  if (!task.ok()) return Error{task.error()};
  Expected<TrainingProgress> progress = loadCheckpoint(checkpoint, (*task)->model(), nullptr);
  if (!progress.ok()) return Error{progress.error()};
  (*task)->model().eval();
  return LoadedModel{*config, std::move(*task), checkpoint, progress->step};
}

}  // namespace

std::string latestCheckpoint(const std::string& run_dir) {
  for (const char* name : {"last", "best"}) {
    const std::string path = run_dir + "/checkpoints/" + name + ".pt";
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) return path;
  }
  return {};
}

Expected<InferenceAnswer> inferFromCheckpoint(const InferenceRequest& request) {
  // Exceptions from LibTorch stop here (the caller is a worker thread that Qt owns).
  try {
    Expected<LoadedModel> model = loadModel(request.run_dir);
    if (!model.ok()) return Error{model.error()};
    torch::NoGradGuard no_grad;
    Expected<InferenceOutcome> outcome =
        request.text.empty() ? model->task->inferImage(ImageBuffer{
                                   request.image_width, request.image_height, request.image_planar})
                             : model->task->inferText(request.text);
    if (!outcome.ok()) return Error{outcome.error()};
    InferenceAnswer answer;
    answer.task = model->config.task;
    answer.checkpoint = model->checkpoint;
    answer.step = model->step;
    answer.label = outcome->label;
    answer.probability = outcome->probability;
    answer.ranking = outcome->ranking;
    return answer;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"inference failed: " + what.substr(0, what.find('\n'))};
  }
}

Expected<PositionalEncodingSnapshot> positionalEncodingFromCheckpoint(const std::string& run_dir) {
  try {
    Expected<LoadedModel> model = loadModel(run_dir);
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
