#include <torch/cuda.h>

#include <cstdio>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "engine/data/image_folder_reader.h"
#include "engine/run/run_folder.h"
#include "engine/tasks/task.h"
#include "engine/train/checkpoint.h"

namespace ascope::cli {
namespace {

constexpr const char* kInferHelp =
    "usage: attentionscope-cli infer --run RUNDIR (--text \"…\" | --image FILE)\n"
    "\n"
    "  --run RUNDIR   a run folder written by 'train' (uses checkpoints/best.pt, else last.pt)\n"
    "  --text T       a review (imdb) or an English sentence (translate)\n"
    "  --image FILE   a PNG or JPEG (vit), or a binary PPM (any build); resized to the model's\n"
    "                 input size\n"
    "  --device D     cpu (default) or cuda; a run trained on either loads on either\n";

}  // namespace

int runInfer(const std::vector<std::string>& args) {
  Expected<CliOptions> parsed =
      CliOptions::parse(args, {"--run", "--text", "--image", "--device"}, {"--help"});
  if (!parsed.ok()) return usageError(parsed.error(), "infer");
  const CliOptions& o = *parsed;
  if (o.has("--help")) {
    std::fputs(kInferHelp, stdout);
    return 0;
  }
  const auto run = o.text("--run");
  if (!run) return usageError("--run is required", "infer");
  if (o.has("--text") == o.has("--image"))
    return usageError("give either --text or --image", "infer");

  Expected<RunFolder> folder = RunFolder::open(*run);
  if (!folder.ok()) return usageError(folder.error(), "infer");
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return usageError(config.error(), "infer");
  const std::string device = o.text("--device").value_or("cpu");
  if (device != "cpu" && device != "cuda") {
    return usageError("--device must be cpu or cuda, got \"" + device + "\"", "infer");
  }
  if (device == "cuda" && !torch::cuda::is_available()) {
    return usageError("--device cuda: no CUDA GPU is available", "infer");
  }
  if (o.has("--image") && config->task != "vit") {
    return usageError("--image is for a vit run; " + *run + " is a " + config->task + " run",
                      "infer");
  }
  if (o.has("--text") && config->task == "vit") {
    return usageError("--text is for an imdb or translate run; " + *run + " is a vit run", "infer");
  }
  Expected<std::unique_ptr<Task>> task = makeInferenceTask(
      *config, folder->path(), torch::Device(device == "cuda" ? torch::kCUDA : torch::kCPU));
  if (!task.ok()) return usageError(task.error(), "infer");
  std::string checkpoint = folder->checkpointPath("best");
  if (!std::filesystem::exists(checkpoint)) checkpoint = folder->checkpointPath("last");
  Expected<TrainingProgress> loaded = loadCheckpoint(checkpoint, (*task)->model(), nullptr);
  if (!loaded.ok()) return usageError(loaded.error(), "infer");

  Expected<InferenceOutcome> result = Error{""};
  if (const auto text = o.text("--text")) {
    result = (*task)->inferText(*text);
  } else {
    const int side = static_cast<int>(config->vit.image_size);
    Expected<std::vector<std::uint8_t>> pixels =
        ImageFolderReader::decode(*o.text("--image"), side, side);
    if (!pixels.ok()) return usageError(pixels.error(), "infer");
    result = (*task)->inferImage(ImageBuffer{side, side, std::move(*pixels)});
  }
  if (!result.ok()) return usageError(result.error(), "infer");
  if (config->task == "translate") {
    std::printf("%s\n", result->label.c_str());
  } else {
    std::printf("%s (p=%.3f)\n", result->label.c_str(), result->probability);
    for (std::size_t i = 1; i < std::min<std::size_t>(result->ranking.size(), 3); ++i) {
      std::printf("  then %s (p=%.3f)\n", result->ranking[i].first.c_str(),
                  result->ranking[i].second);
    }
  }
  return 0;
}

}  // namespace ascope::cli
