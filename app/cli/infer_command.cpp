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
    "  --image FILE   a PNG or JPEG (vit); resized to the model's input size\n";

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
  if (o.has("--text") == o.has("--image")) return usageError("give either --text or --image", "infer");

  Expected<RunFolder> folder = RunFolder::open(*run);
  if (!folder.ok()) return usageError(folder.error(), "infer");
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return usageError(config.error(), "infer");
  Expected<std::unique_ptr<Task>> task =
      makeInferenceTask(*config, folder->path(), torch::Device(torch::kCPU));
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
    Expected<std::vector<std::uint8_t>> pixels = ImageFolderReader::decode(*o.text("--image"), side, side);
    if (!pixels.ok()) return usageError(pixels.error(), "infer");
    result = (*task)->inferImage(ImageBuffer{side, side, std::move(*pixels)});
  }
  if (!result.ok()) return usageError(result.error(), "infer");
  if (config->task == "translate") {
    std::printf("%s\n", result->label.c_str());
  } else {
    std::printf("%s (p=%.3f)\n", result->label.c_str(), result->probability);
    for (std::size_t i = 1; i < std::min<std::size_t>(result->ranking.size(), 3); ++i) {
      std::printf("  then %s (p=%.3f)\n", result->ranking[i].first.c_str(), result->ranking[i].second);
    }
  }
  return 0;
}

}  // namespace ascope::cli
