#include "engine/tasks/letter_reversal/letter_reversal_descriptor.h"

#include "engine/tasks/descriptor_parts.h"
#include "engine/tasks/letter_reversal/letter_reversal_config.h"
#include "engine/tasks/letter_reversal/letter_reversal_task.h"
#include "engine/tasks/letter_reversal/letter_words.h"
#include "engine/tasks/loaded_dataset.h"
#include "engine/vocabulary/payloads/text_alignment.h"

namespace ascope {
namespace {

// `laptop` reverses words of up to 8 letters within a minute on a 2-core CPU (measured: every
// validation word right after its first epoch, about 30 s for the four; at 2e-3 the same model
// sits at a third of the letters for three epochs before it finds the mirror); `tiny` is for
// tests and a quick look (it trains, it does not learn much).
TrainingConfig letterReversalPreset(const std::string& name) {
  TrainingConfig c;
  c.task = kLetterReversalTaskId;
  c.preset = name;
  c.optimization.optimizer = "adamw";
  c.optimization.weight_decay = 0.01;
  c.optimization.lr = 5e-3;
  c.optimization.schedule = "cosine";
  c.optimization.warmup_steps = 100;
  LetterReversalConfig& model = c.task_settings.as<LetterReversalConfig>();
  if (name == "laptop") {
    c.builtin = {20000, 1000, 1};
    c.batch_size = 64;
    c.epochs = 4;
  } else {
    model.d_model = 16, model.heads = 2, model.d_ff = 32, model.layers = 1;
    model.max_letters = 5;
    c.builtin = {640, 128, 1};
    c.batch_size = 32;
    c.epochs = 3;
    c.optimization.warmup_steps = 0;
    probeEveryTenSteps(c);
  }
  return c;
}

Status validateLetterReversal(const TrainingConfig& c) {
  return validateGeneratedTask<LetterReversalConfig>(c, "reversal", "its own words");
}

/// The three splits, each from a seed of its own, so no held-out word was drawn for training
/// (a short word may still recur by chance, as a real one would).
std::array<std::vector<std::string>, 3> words(const TrainingConfig& c) {
  const auto letters = static_cast<int>(c.task_settings.get<LetterReversalConfig>().max_letters);
  const std::uint64_t seed = c.builtin.seed;
  return {generateLetterWords(c.builtin.train_count, letters, seed),
          generateLetterWords(c.builtin.test_count, letters, seed * 1000003ULL + 1),
          generateLetterWords(c.builtin.test_count, letters, seed * 1000003ULL + 2)};
}

Expected<std::unique_ptr<Task>> makeLetterReversalTraining(const TaskBuild& b) {
  if (b.shapes.any()) return Error{"vocab and pad_to are for the text tasks"};
  return std::unique_ptr<Task>(
      std::make_unique<LetterReversalTask>(b.config, words(b.config), b.device));
}

Expected<std::unique_ptr<Task>> makeLetterReversalInference(const TaskBuild& b) {
  std::array<std::vector<std::string>, 3> none;
  return std::unique_ptr<Task>(std::make_unique<LetterReversalTask>(
      b.config, b.with_data ? words(b.config) : none, b.device));
}

MetricInfo editDistanceMetric() {
  MetricInfo m;
  m.key = kEditDistanceKey;
  m.title = "edit distance";
  m.description =
      "letters to change, add or remove to turn the answer into the reversed word, averaged over "
      "the words";
  m.better = Better::kLower;
  m.decimals = 2;
  m.headline = true;
  return m;
}

}  // namespace

TaskDescriptor letterReversalTaskDescriptor() {
  TaskDescriptor d;
  d.id = kLetterReversalTaskId;
  d.title = "Letters · reversed";
  d.data_formats = "generated words of letters only";
  d.input = TaskInput::kText;
  d.sample_terms = {"word", "reversed", "answer", true};
  d.payloads = {TextAlignment::kKind};
  d.input_hint = "Type a word of letters, e.g. attend";
  d.accuracy_name = "letter accuracy";
  d.metrics = {editDistanceMetric()};
  d.special_tokens = {"START", "END", "PAD"};
  d.presets = {{"laptop", "a minute on a CPU"}, {"tiny", "seconds, a quick look"}};
  d.make_preset = letterReversalPreset;
  d.validate = validateLetterReversal;
  useEncoderShape<LetterReversalConfig>(d);
  d.image_side = [](const TrainingConfig&) { return 0; };
  d.attention_axes = [](const std::string&) {
    return AttentionAxes{"encoder self", "query (letter written)", "key (START, word read)"};
  };
  d.step_flops = [](const TrainingConfig& c) -> Expected<double> {
    return letterReversalStepFlops(c.task_settings.get<LetterReversalConfig>(), c.batch_size);
  };
  d.make_training_task = makeLetterReversalTraining;
  d.make_inference_task = makeLetterReversalInference;
  return d;
}

}  // namespace ascope
