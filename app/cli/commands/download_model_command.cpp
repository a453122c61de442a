// `attentionscope-cli download-model ID`: fetches a pretrained model (config, tokenizer or
// preprocessor files, weights) from the Hugging Face hub into the per-user models folder
// (engine/download/models/model_downloader.h). Builds without the downloader too (the GPU server
// has no libcurl); the command then says so and exits 2, as `download` does.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/subcommands.h"

#if defined(ATTENTIONSCOPE_WITH_DOWNLOAD)
#include <algorithm>
#include <cstdint>

#include "app/cli/output/progress_printer.h"
#include "app/cli/output/warning_log.h"
#include "app/cli/training/interrupt_cancels.h"
#include "engine/download/byte_count_text.h"
#include "engine/download/models/model_downloader.h"
#include "engine/download/models/model_id.h"
#include "engine/download/models/models_folder.h"
#endif

namespace ascope::cli {

#if !defined(ATTENTIONSCOPE_WITH_DOWNLOAD)

Subcommand addDownloadModelCommand(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("download-model", "fetch a pretrained model (not in this build)");
  command->allow_extras();  // whatever was asked, the answer is the same
  return {command, [] {
            std::fputs(
                "attentionscope-cli: this build has no downloader (it needs libcurl); fetch the "
                "model's files from the Hugging Face hub yourself\n",
                stderr);
            return 2;
          }};
}

#else

namespace {

/// A day: a longer wait is no timeout.
constexpr double kMaxModelTimeoutSeconds = 86400;

// Smaller files arrive in a blink; a progress line for them is noise.
constexpr std::int64_t kProgressFromBytes = 1'000'000;

struct DownloadModelRequest {
  std::optional<std::string> id, to;
  std::optional<double> timeout;
  bool force = false;
};

void printFiles(const std::vector<ModelFile>& files) {
  std::size_t width = 0;
  for (const ModelFile& file : files) width = std::max(width, file.name.size());
  for (const ModelFile& file : files) {
    std::fprintf(stderr, "  %-*s  %10s\n", static_cast<int>(width), file.name.c_str(),
                 byteCountText(file.size).c_str());
  }
}

int downloadModel(const DownloadModelRequest& o) {
  if (!o.id) {
    return usageError("download-model needs a model id, e.g. google/vit-base-patch16-224",
                      "download-model");
  }
  const Expected<ModelId> id = ModelId::parse(*o.id);
  if (!id.ok()) return usageError(id.error(), "download-model");
  std::string folder = o.to.value_or("");
  if (!o.to) {
    const std::string models = defaultModelsFolder();
    if (models.empty()) {
      return usageError("no home folder to put models in: pass --to", "download-model");
    }
    folder = models + "/" + id->folderName();
  }
  if (folder.empty()) return usageError("--to needs a folder", "download-model");

  logWarningsToStderr();
  std::unique_ptr<ProgressPrinter> printer;
  ModelDownloadOptions options;
  options.force = o.force;
  if (o.timeout) options.limits = TransferLimits::uniform(*o.timeout);
  options.on_file = [&](const std::string& file, std::int64_t size) {
    if (printer) printer->endLine();
    std::fprintf(stderr, "%s (%s)\n", file.c_str(), byteCountText(size).c_str());
    printer =
        size >= 0 && size < kProgressFromBytes ? nullptr : std::make_unique<ProgressPrinter>();
  };
  Expected<DownloadedModel> fetched = Error{""};
  {
    const InterruptCancels interrupt_cancels;
    std::fprintf(stderr, "getting %s into %s\n", id->repoPath().c_str(), folder.c_str());
    fetched = ModelDownloader(options).fetch(
        *id, folder,
        [&](std::int64_t done, std::int64_t total, double rate) {
          if (printer) printer->update(done, total, rate);
        },
        &InterruptCancels::flag());
  }
  if (printer) printer->endLine();
  if (!fetched.ok()) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", fetched.error().c_str());
    if (InterruptCancels::flag()) std::fputs("run the same command again to resume\n", stderr);
    return 1;
  }
  const std::string kind = fetched->model_type.empty() ? "" : " (" + fetched->model_type + ")";
  if (fetched->already_present) {
    std::fprintf(stderr, "%s%s is already in %s (--force downloads it again):\n",
                 id->repoPath().c_str(), kind.c_str(), fetched->folder.c_str());
  } else {
    std::fprintf(stderr, "%s%s is ready in %s:\n", id->repoPath().c_str(), kind.c_str(),
                 fetched->folder.c_str());
  }
  printFiles(fetched->files);
  std::printf("%s\n", fetched->folder.c_str());
  return 0;
}

}  // namespace

Subcommand addDownloadModelCommand(CLI::App& app) {
  auto o = std::make_shared<DownloadModelRequest>();
  CLI::App* command = app.add_subcommand(
      "download-model",
      "fetch a pretrained model from the Hugging Face hub into the models folder");
  command->footer(
      "Fetches <hub>/ID/resolve/main/<file>: config.json, then for a BERT-like model\n"
      "tokenizer.json (or vocab.txt), tokenizer_config.json and special_tokens_map.json, for a "
      "ViT\n"
      "preprocessor_config.json, and the weights (model.safetensors, else pytorch_model.bin).\n"
      "Each file's size and SHA-256 (weights) are checked; the model folder appears only once\n"
      "every file is there. Run the same command again to resume a broken or cancelled download\n"
      "(Ctrl-C or SIGTERM cancels; a second one exits at once).\n"
      "\n"
      "Environment: HF_TOKEN, an access token for private and gated models (sent only to an\n"
      "https:// address, or to this machine);\n"
      "ATTENTIONSCOPE_HF_ENDPOINT, the hub's address (default https://huggingface.co).\n"
      "Progress goes to stderr; the model folder is printed on stdout.");
  command
      ->add_option("id", o->id, "the model, e.g. google/vit-base-patch16-224 or bert-base-uncased")
      ->type_name("ID");
  command
      ->add_option("--to", o->to,
                   "the model folder (default: $XDG_DATA_HOME/attentionscope/models/OWNER--NAME, "
                   "else ~/.local/share/attentionscope/models/OWNER--NAME)")
      ->type_name("DIR");
  command->add_flag("--force", o->force,
                    "download again into a folder that holds a model, replacing the model's files "
                    "(the folder's other files are kept)");
  command
      ->add_option("--timeout", o->timeout,
                   "give up on a server that does not connect, answer or send the next byte "
                   "within this many seconds (default: 30 to connect, 60 for the rest)")
      ->type_name("SECONDS")
      ->check(realIn(0, kMaxModelTimeoutSeconds, /*open=*/true));
  return {command, [o] { return downloadModel(*o); }};
}

#endif

int runDownloadModel(const std::vector<std::string>& args) {
  CLI::App app("", "attentionscope-cli");
  useHouseHelpLayout(app);
  const Subcommand command = addDownloadModelCommand(app);
  std::vector<std::string> command_line = {"download-model"};
  command_line.insert(command_line.end(), args.begin(), args.end());
  if (const std::optional<int> exit_code = parseCommandLine(app, command_line)) return *exit_code;
  return command.run();
}

}  // namespace ascope::cli
