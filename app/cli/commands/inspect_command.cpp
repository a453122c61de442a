// `attentionscope-cli inspect --model FOLDER (--text "…" [--pair "…"] | --image FILE)`: a
// pretrained Hugging Face model (a folder from `download-model` or save_pretrained) answers an
// input without any training, and shows the shape of every layer's attention; `--attention`
// writes all of it as `infer --attention` does.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/output/attention_json.h"
#include "app/cli/subcommands.h"
#include "engine/inference/pretrained_inspection.h"

namespace ascope::cli {
namespace {

struct InspectOptions {
  std::string model;
  std::optional<std::string> text, pair, image, attention;
};

void printAttentionShapes(const AttentionSnapshot& snapshot) {
  for (const AttentionGroup& group : snapshot.groups) {
    const std::size_t rows = group.row_labels.size(), cols = group.col_labels.size();
    for (int layer = 0; layer < group.layers; ++layer) {
      std::printf("%s layer %d: %d heads × %zu × %zu\n", group.name.c_str(), layer, group.heads,
                  rows, cols);
    }
    std::string tokens;
    for (const std::string& t : group.col_labels) tokens += (tokens.empty() ? "" : " ") + t;
    std::printf("tokens (%zu): %s\n", cols, tokens.c_str());
  }
}

int inspect(const InspectOptions& o) {
  if (!o.text && !o.image) return usageError("give --text \"…\" or --image FILE", "inspect");
  if (o.pair && !o.text) return usageError("--pair needs --text", "inspect");
  // A missing folder is named as what it is, before anything inside it is looked for.
  std::error_code ec;
  if (!std::filesystem::is_directory(o.model, ec)) {
    return usageError(
        "--model: " + o.model +
            (std::filesystem::exists(o.model, ec) ? " is not a folder" : ": no such folder"),
        "inspect");
  }
  if (o.image && !std::filesystem::exists(*o.image, ec)) {
    return usageError("--image: " + *o.image + ": no such file", "inspect");
  }
  // The model folder is every file the command reads, with the image.
  std::vector<CommandInput> inputs = {{o.model, "the model folder"}};
  if (o.image) inputs.push_back({*o.image, "the image"});
  if (o.attention) {
    if (Status writable = checkOutputFile(*o.attention, inputs); !writable.ok()) {
      return usageError("--attention: " + writable.error(), "inspect");
    }
  }
  PretrainedInspectionRequest request;
  request.model_folder = o.model;
  request.text = o.text.value_or("");
  request.text_pair = o.pair.value_or("");
  request.image_file = o.image.value_or("");
  Expected<InferenceAnswer> answer = inspectPretrained(request);
  // What stops it is the folder or the input (no config.json, weights it cannot read, text too
  // long): a usage error, exit 2, as the README says of bad input.
  if (!answer.ok()) return usageError(answer.error(), "inspect");
  if (!answer->note.empty()) std::fprintf(stderr, "attentionscope-cli: %s\n", answer->note.c_str());
  if (o.attention) {
    const std::string input = o.text ? *o.text + (o.pair ? " ||| " + *o.pair : "") : *o.image;
    if (Status written = writeAttentionJson(*o.attention, *answer, input, inputs); !written.ok()) {
      std::fprintf(stderr, "attentionscope-cli: --attention: %s\n", written.error().c_str());
      return 1;
    }
  }
  std::printf("%s (p=%.3f)\n", answer->label.c_str(), answer->probability);
  printAttentionShapes(answer->attention);
  return 0;
}

}  // namespace

Subcommand addInspectCommand(CLI::App& app) {
  auto o = std::make_shared<InspectOptions>();
  CLI::App* command = app.add_subcommand(
      "inspect", "look inside a pretrained Hugging Face BERT or ViT: its answer and every head");
  command->footer(
      "  attentionscope-cli inspect --model FOLDER --text \"…\" [--pair \"…\"] "
      "[--attention FILE.json]\n"
      "  attentionscope-cli inspect --model FOLDER --image FILE [--attention FILE.json]\n"
      "FOLDER holds config.json and model.safetensors (download-model writes such folders), with "
      "vocab.txt or tokenizer.json for BERT and preprocessor_config.json for ViT.");
  command->add_option("--model", o->model, "the model folder")->type_name("FOLDER")->required();
  CLI::Option* text = command->add_option("--text", o->text, "BERT: a sentence")->type_name("T");
  command->add_option("--pair", o->pair, "BERT: a second sentence (token type 1)")->type_name("T");
  CLI::Option* image = command->add_option("--image", o->image, "ViT: PNG or JPEG, or a binary PPM")
                           ->type_name("FILE");
  text->excludes(image);
  command
      ->add_option("--attention", o->attention,
                   "also write every layer's and head's attention, labelled with the input's "
                   "tokens or patches, to this JSON file")
      ->type_name("FILE.json");
  return {command, [o] { return inspect(*o); }};
}

}  // namespace ascope::cli
