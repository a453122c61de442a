#include "engine/tasks/digit_order/digit_order_descriptor.h"

#include "engine/tasks/descriptor_parts.h"
#include "engine/tasks/digit_order/digit_order_config.h"
#include "engine/tasks/digit_order/digit_order_task.h"
#include "engine/tasks/loaded_dataset.h"

namespace ascope {
namespace {

// `laptop` learns to spot the one pair out of order within a minute on a 2-core CPU (measured:
// validation accuracy 0.93 after 10 epochs, 0.99 after 20, 26 s), `tiny` is for tests and a quick
// look (it trains, it does not learn much).
TrainingConfig digitOrderPreset(const std::string& name) {
  TrainingConfig c;
  c.task = kDigitOrderTaskId;
  c.preset = name;
  c.optimization.optimizer = "adamw";
  c.optimization.weight_decay = 0.01;
  c.optimization.lr = 3e-3;
  c.optimization.schedule = "cosine";
  c.optimization.warmup_steps = 50;
  DigitOrderConfig& model = c.task_settings.as<DigitOrderConfig>();
  if (name == "laptop") {
    c.builtin = {8000, 1000, 1};
    c.batch_size = 64;
    c.epochs = 20;
  } else {
    model.d_model = 16, model.d_ff = 32, model.layers = 1;
    c.builtin = {640, 128, 1};
    c.batch_size = 32;
    c.epochs = 3;
    c.optimization.warmup_steps = 0;
    probeEveryTenSteps(c);
  }
  return c;
}

Status validateDigitOrder(const TrainingConfig& c) {
  return validateGeneratedTask<DigitOrderConfig>(c, "digits", "its own sequences");
}

/// The training sequences of `c` and its validation ones, which come from a seed of their own, so
/// they are not the training ones.
std::pair<std::vector<DigitSequence>, std::vector<DigitSequence>> sequences(
    const TrainingConfig& c) {
  const auto length = static_cast<int>(c.task_settings.get<DigitOrderConfig>().length);
  return {generateDigitSequences(c.builtin.train_count, length, c.builtin.seed),
          generateDigitSequences(c.builtin.test_count, length, c.builtin.seed * 1000003ULL + 1)};
}

Expected<std::unique_ptr<Task>> makeDigitOrderTraining(const TaskBuild& b) {
  if (b.shapes.any()) return Error{"vocab and pad_to are for the text tasks"};
  auto [train, validation] = sequences(b.config);
  return std::unique_ptr<Task>(std::make_unique<DigitOrderTask>(b.config, std::move(train),
                                                                std::move(validation), b.device));
}

/// With data (`evaluate`): the run's own sequences, regenerated. The generator's held-out
/// sequences are the validation split; training has no test split, so `evaluate --split all`
/// (which names the data as the test data) scores those held-out sequences whole.
Expected<std::unique_ptr<Task>> makeDigitOrderInference(const TaskBuild& b) {
  if (!b.with_data) {
    return std::unique_ptr<Task>(std::make_unique<DigitOrderTask>(
        b.config, std::vector<DigitSequence>{}, std::vector<DigitSequence>{}, b.device));
  }
  if (!usesBuiltinData(b.config)) {
    return Error{"the digits task makes its own sequences: data must be builtin, got \"" +
                 b.config.data + "\""};
  }
  auto [train, validation] = sequences(b.config);
  SplitOrigins origins;
  origins.validation = "the generator's " + std::to_string(validation.size()) +
                       " held-out sequences (none of them in training)";
  std::vector<DigitSequence> test;
  if (!b.config.splits.test_data.empty()) {
    test = validation;
    origins.test = origins.validation;
  }
  return std::unique_ptr<Task>(std::make_unique<DigitOrderTask>(
      b.config, std::move(train), std::move(validation), b.device, std::move(test), origins));
}

}  // namespace

TaskDescriptor digitOrderTaskDescriptor() {
  TaskDescriptor d;
  d.id = kDigitOrderTaskId;
  d.title = "Digits · in order?";
  d.data_formats = "generated sequences of digits only";
  d.input = TaskInput::kText;
  d.sample_terms = {"digits", "label", "answer", false};
  d.input_hint = "Type digits, e.g. 1 3 3 7 8 9 9 4";
  d.accuracy_name = "accuracy";
  d.special_tokens = {"CLS"};
  d.presets = {{"laptop", "a minute on a CPU"}, {"tiny", "seconds, a quick look"}};
  d.make_preset = digitOrderPreset;
  d.validate = validateDigitOrder;
  useEncoderShape<DigitOrderConfig>(d);
  d.image_side = [](const TrainingConfig&) { return 0; };
  d.attention_axes = [](const std::string&) {
    return AttentionAxes{"encoder self", "query (CLS, digits)", "key (CLS, digits)"};
  };
  d.step_flops = [](const TrainingConfig& c) -> Expected<double> {
    return digitOrderStepFlops(c.task_settings.get<DigitOrderConfig>(), c.batch_size);
  };
  d.make_training_task = makeDigitOrderTraining;
  d.make_inference_task = makeDigitOrderInference;
  return d;
}

}  // namespace ascope
