// `attentionscope-cli explain`: one head of a trained run or a pretrained model, recomputed stage
// by stage with the model's own numbers (Q, K, V, QKᵀ, the scale, the mask, the softmax, the
// weights times V, the heads joined, the output projection) and one cell taken apart: what the
// Computation view shows, for scripts, notebooks and slides.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/output/computation_json.h"
#include "app/cli/output/json_output_file.h"
#include "app/cli/subcommands.h"
#include "app/cli/training/training_options.h"
#include "engine/analysis/attention_cell_breakdown.h"
#include "engine/device/device_query.h"
#include "engine/inference/attention_explanation.h"
#include "engine/runfolder/own_files.h"

namespace ascope::cli {
namespace {

struct ExplainOptions {
  std::optional<std::string> run, model;
  std::optional<int64_t> sample;
  std::optional<std::string> text, pair, image;
  std::string group;
  int64_t layer = 0;
  int64_t head = 0;
  std::optional<int64_t> query, key;
  std::string checkpoint = "last";
  std::optional<std::string> device;
  std::optional<std::string> out;
};

std::string quoted(const std::vector<std::string>& labels, int i) {
  return i >= 0 && i < static_cast<int>(labels.size())
             ? "\"" + labels[static_cast<std::size_t>(i)] + "\""
             : std::string("?");
}

/// The dimensions whose products weigh most in the logit, largest magnitude first.
std::string largestProducts(const std::vector<double>& products, std::size_t shown) {
  std::vector<std::size_t> order(products.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(products[a]) > std::abs(products[b]);
  });
  std::string text;
  for (std::size_t i = 0; i < std::min(shown, order.size()); ++i) {
    char item[64];
    std::snprintf(item, sizeof item, "%sd%zu %+.3f", i == 0 ? "" : ", ", order[i],
                  products[order[i]]);
    text += item;
  }
  return text;
}

void printExplanation(const Explanation& e, const AttentionCellBreakdown& cell) {
  const AttentionComputation& c = e.computation;
  std::printf("%s · %s layer %d head %d of %d", c.task.c_str(), c.group.c_str(), c.layer, c.head,
              c.heads);
  if (c.step > 0) std::printf(" · weights of step %lld", static_cast<long long>(c.step));
  std::printf(" (%s)\n", c.weights_file.c_str());
  std::printf("input: %s → answer: %s\n", c.input.c_str(), e.answer.c_str());
  const int tq = c.q.rows, tk = c.k.rows;
  std::printf(
      "X [%d × %d] → Q [%d × %d], K [%d × %d], V [%d × %d] → QKᵀ [%d × %d] → ÷√%d → mask → "
      "softmax → A V [%d × %d] → %d heads joined [%d × %d] → W_O [%d × %d]\n",
      c.query_input.rows, c.query_input.cols, tq, c.d_head, tk, c.d_head, tk, c.d_head, tq, tk,
      c.d_head, tq, c.d_head, c.heads, tq, c.d_model, tq, c.d_model);
  if (c.keys_outside > 0) {
    std::printf("(%d more keys take part in the softmax than the %d shown)\n", c.keys_outside, tk);
  }
  std::printf("cell: query %d %s → key %d %s\n", cell.query,
              quoted(c.query_labels, cell.query).c_str(), cell.key,
              quoted(c.key_labels, cell.key).c_str());
  if (cell.masked) {
    std::printf("  masked: this query may not see this key (weight 0, no logit)\n");
  } else {
    std::printf("  q·k = Σ of %zu products = %.4f (largest: %s)\n", cell.products.size(), cell.sum,
                largestProducts(cell.products, 3).c_str());
    std::printf(
        "  × 1/√%d = %.4f → place %d of %d in its row; weight %.4f, place %d after the "
        "softmax\n",
        c.d_head, cell.scaled, cell.rank_before, cell.unmasked_keys, cell.weight, cell.rank_after);
  }
  if (cell.has_parts && !cell.masked) {
    const double content = std::abs(cell.parts[0]);
    const double place =
        std::abs(cell.parts[1]) + std::abs(cell.parts[2]) + std::abs(cell.parts[3]);
    std::printf(
        "  parts: token·token %.4f, token·position %.4f, position·token %.4f, "
        "position·position %.4f → mostly %s\n",
        cell.parts[0], cell.parts[1], cell.parts[2], cell.parts[3],
        content >= place ? "content" : "place");
  }
  if (e.largest_difference) {
    std::printf("the recomputed weights equal the model's own to %.1e\n", *e.largest_difference);
  }
}

int explain(const ExplainOptions& o) {
  if (o.run.has_value() == o.model.has_value()) {
    return usageError("give --run RUNDIR or --model FOLDER", "explain");
  }
  const int inputs_given = (o.sample ? 1 : 0) + (o.text ? 1 : 0) + (o.image ? 1 : 0);
  if (inputs_given != 1) {
    return usageError(
        "give one of --sample I (a run's validation sample), --text \"…\" or "
        "--image FILE",
        "explain");
  }
  if (o.sample && o.model) {
    return usageError(
        "--sample is a run's validation sample; a pretrained model takes --text or "
        "--image",
        "explain");
  }
  if (o.pair && !(o.model && o.text)) {
    return usageError("--pair is BERT's second sentence: give it with --model and --text",
                      "explain");
  }
  if (o.key && !o.query) return usageError("--key needs --query", "explain");
  const std::string device = o.device.value_or("cpu");
  if (device == "cuda" && !cudaAvailable()) {
    return usageError("--device cuda: " + noCudaReason(), "explain");
  }
  std::error_code ec;
  const std::string folder = o.run ? *o.run : *o.model;
  if (!std::filesystem::is_directory(folder, ec)) {
    return usageError(
        std::string(o.run ? "--run: " : "--model: ") + folder +
            (std::filesystem::exists(folder, ec) ? " is not a folder" : ": no such folder"),
        "explain");
  }
  std::vector<CommandInput> inputs =
      o.run ? runFolderInputs(*o.run) : std::vector<CommandInput>{{*o.model, "the model folder"}};
  if (o.image) inputs.push_back({*o.image, "the image"});
  if (o.out) {
    if (Status writable = checkOutputFile(*o.out, inputs); !writable.ok()) {
      return usageError("--out: " + writable.error(), "explain");
    }
  }
  ExplainRequest request;
  request.run_dir = o.run.value_or("");
  request.model_folder = o.model.value_or("");
  request.device = device;
  request.checkpoint = o.checkpoint == "best" ? CheckpointChoice::kBest : CheckpointChoice::kNewest;
  request.sample = static_cast<int>(o.sample.value_or(-1));
  request.text = o.text.value_or("");
  request.text_pair = o.pair.value_or("");
  request.image_file = o.image.value_or("");
  request.group = o.group;
  request.layer = static_cast<int>(o.layer);
  request.head = static_cast<int>(o.head);
  Expected<Explanation> e = explainAttention(request);
  if (!e.ok()) return usageError(e.error(), "explain");
  if (!e->note.empty()) std::fprintf(stderr, "attentionscope-cli: %s\n", e->note.c_str());
  const int query = static_cast<int>(o.query.value_or(0));
  const int key = o.key ? static_cast<int>(*o.key) : strongestKey(e->computation, query);
  // A query out of range is named before a key is chosen for it.
  Expected<AttentionCellBreakdown> cell = breakDownCell(e->computation, query, key < 0 ? 0 : key);
  if (!cell.ok()) {
    return usageError(
        std::string(o.key && e->computation.q.rows > query ? "--key: " : "--query: ") +
            cell.error(),
        "explain");
  }
  if (o.out) {
    if (Status written = writeJsonOutputFile(*o.out, computationJson(*e, *cell), inputs);
        !written.ok()) {
      std::fprintf(stderr, "attentionscope-cli: --out: %s\n", written.error().c_str());
      return 1;
    }
  }
  printExplanation(*e, *cell);
  return 0;
}

}  // namespace

Subcommand addExplainCommand(CLI::App& app) {
  auto o = std::make_shared<ExplainOptions>();
  CLI::App* command = app.add_subcommand(
      "explain", "one head's attention as a computation, with the model's own numbers");
  command->footer(
      "  attentionscope-cli explain --run RUNDIR (--sample I | --text \"…\" | --image FILE)\n"
      "      [--group G] [--layer L] [--head H] [--query Q [--key K]] [--out FILE.json]\n"
      "  attentionscope-cli explain --model FOLDER (--text \"…\" [--pair \"…\"] | --image FILE) "
      "…\n"
      "Without --key, the key the query weighs most; without --query, query 0. Layers, heads, "
      "queries and keys count from 0.");
  CLI::Option* run =
      command->add_option("--run", o->run, "a run folder written by 'train'")->type_name("RUNDIR");
  CLI::Option* model =
      command->add_option("--model", o->model, "a pretrained BERT or ViT folder (see 'inspect')")
          ->type_name("FOLDER");
  run->excludes(model);
  CLI::Option* sample =
      command
          ->add_option("--sample", o->sample,
                       "a validation sample of the run, numbered as its probes number them")
          ->type_name("I")
          ->check(kWholeNumber)
          ->check(CLI::Range(int64_t{0}, int64_t{100'000'000}));
  CLI::Option* text =
      command->add_option("--text", o->text, "a text the model reads")->type_name("T");
  CLI::Option* image =
      command->add_option("--image", o->image, "an image (PNG, JPEG or binary PPM)")
          ->type_name("FILE");
  sample->excludes(text)->excludes(image);
  text->excludes(image);
  command->add_option("--pair", o->pair, "BERT: a second sentence (token type 1)")->type_name("T");
  command
      ->add_option("--group", o->group,
                   "the attention group (\"encoder\", \"encoder self\", \"decoder self\", "
                   "\"cross\"); the model's first by default")
      ->type_name("G");
  command->add_option("--layer", o->layer, "the layer, from 0 (default 0)")
      ->type_name("L")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{0}, int64_t{10'000}));
  command->add_option("--head", o->head, "the head, from 0 (default 0)")
      ->type_name("H")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{0}, int64_t{10'000}));
  CLI::Option* query =
      command->add_option("--query", o->query, "the query (row) of the cell taken apart")
          ->type_name("Q")
          ->check(kWholeNumber)
          ->check(CLI::Range(int64_t{0}, int64_t{1'000'000}));
  command->add_option("--key", o->key, "the key (column) of the cell taken apart")
      ->type_name("K")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{0}, int64_t{1'000'000}))
      ->needs(query);
  command
      ->add_option("--checkpoint", o->checkpoint,
                   "a run's weights: last (default, the step the run ended on) or best")
      ->check(CLI::IsMember({"last", "best"}));
  command
      ->add_option("--out", o->out,
                   "write every stage, its shape and formula, and the cell's breakdown to this "
                   "JSON file")
      ->type_name("FILE.json");
  addDeviceOption(*command, o->device, "cpu (default) or cuda");
  return {command, [o] { return explain(*o); }};
}

}  // namespace ascope::cli
