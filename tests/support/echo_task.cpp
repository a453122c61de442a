// The echo task reuses the sentiment model and tokenizer on generated texts; what makes it a task
// of its own is its descriptor: id, title, presets, data, axis titles, sample kind.
#include "echo_task.h"

#include <memory>
#include <mutex>
#include <random>

#include "engine/models/model_flops.h"
#include "engine/models/text_classifier_config.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/review_data_settings.h"
#include "engine/tasks/sentiment/sentiment_task.h"

namespace ascope {
namespace {

/// Texts of 3–6 words; label 1 when "yes" is among them. Training and validation only: the echo
/// task has no test split.
TextDataset echoData(int train, int test, unsigned seed) {
  static const char* const kWords[] = {"yes", "no", "maybe", "sure", "never", "often"};
  std::mt19937 rng(seed);
  TextDataset data;
  data.class_names = {"without yes", "with yes"};
  for (int i = 0; i < train + test; ++i) {
    const int length = 3 + static_cast<int>(rng() % 4);
    std::string text;
    int label = 0;
    for (int w = 0; w < length; ++w) {
      const char* word = kWords[rng() % 6];
      label |= std::string(word) == "yes";
      text += (w > 0 ? " " : "") + std::string(word);
    }
    (i < train ? data.train : data.validation).push_back({text, label});
  }
  return data;
}

/// The sentiment task's machinery under the echo task's name: snapshots and samples say "echo".
class EchoTask final : public Task {
 public:
  explicit EchoTask(std::unique_ptr<Task> inner) : inner_(std::move(inner)) {}
  torch::nn::Module& model() override { return inner_->model(); }
  int64_t trainSize() const override { return inner_->trainSize(); }
  int64_t validationSize() const override { return inner_->validationSize(); }
  int64_t testSize() const override { return inner_->testSize(); }
  SplitOrigins splitOrigins() const override { return inner_->splitOrigins(); }
  std::string describe() const override { return "echo: " + inner_->describe(); }
  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override {
    return inner_->trainBatch(indices);
  }
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override {
    return inner_->evaluate(split, max_samples, figures);
  }
  Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                 const ScoringProgress& progress) override {
    return inner_->scoreSplit(split, progress);
  }
  AttentionSnapshot probeAttention(int index) override {
    AttentionSnapshot s = inner_->probeAttention(index);
    s.task = kEchoTaskId;
    return s;
  }
  SamplePrediction predictSample(int index) override {
    SamplePrediction p = inner_->predictSample(index);
    p.task = kEchoTaskId;
    return p;
  }
  PositionalEncodingSnapshot positionalEncoding() override { return inner_->positionalEncoding(); }
  std::vector<AttentionSite> attentionSites() override { return inner_->attentionSites(); }
  Status saveArtifacts(const std::string& run_dir) const override {
    return inner_->saveArtifacts(run_dir);
  }
  Expected<InferenceOutcome> inferText(const std::string& text) override {
    return inner_->inferText(text);
  }

 private:
  std::unique_ptr<Task> inner_;
};

TrainingConfig echoPreset(const std::string& name) {
  TrainingConfig c;
  c.task = kEchoTaskId;
  c.preset = name;
  TextClassifierConfig& text = c.task_settings.as<TextClassifierConfig>();
  text.d_model = 16, text.heads = 2, text.d_ff = 32, text.max_len = 8;
  c.batch_size = 16;
  c.optimization.lr = 5e-3;
  c.builtin = {name == "quick" ? 160 : 640, 40, 1};
  c.epochs = 2;
  c.probe_every_steps = 2;
  c.probe_time_share = 1.0;  // every second step, as the tests count
  c.snapshot_every_steps = c.probe_every_steps;
  c.task_settings.as<ReviewDataSettings>().min_freq = 1;
  return c;
}

TaskDescriptor echoDescriptor() {
  TaskDescriptor d;
  d.id = kEchoTaskId;
  d.title = "Echo · find the word yes";
  d.data_formats = "generated texts only";
  d.input = TaskInput::kText;
  d.sample_terms = {"text", "label", "answer", false};
  d.input_hint = "Type words, e.g. maybe yes";
  d.accuracy_name = "echo accuracy";
  d.presets = {{"quick", "a few seconds"}, {"longer", "a little more data"}};
  d.make_preset = echoPreset;
  d.validate = [](const TrainingConfig& c) {
    TextClassifierConfig t = c.task_settings.get<TextClassifierConfig>();
    t.vocab_size = 8;
    return t.validate();
  };
  d.model_shape = [](const TrainingConfig& c) {
    const TextClassifierConfig t = c.task_settings.get<TextClassifierConfig>();
    return ModelShape{t.layers, t.heads, t.d_model, t.d_ff, 0};
  };
  d.set_model_shape = [](TrainingConfig& c, const ModelShape& s) {
    TextClassifierConfig& t = c.task_settings.as<TextClassifierConfig>();
    t.layers = s.layers, t.heads = s.heads, t.d_model = s.d_model, t.d_ff = s.d_ff;
  };
  d.image_side = [](const TrainingConfig&) { return 0; };
  d.step_flops = [](const TrainingConfig& c) -> Expected<double> {
    const TextClassifierConfig t = c.task_settings.get<TextClassifierConfig>();
    return trainingStepFlops(t, c.batch_size, t.max_len);
  };
  d.attention_axes = [](const std::string&) {
    return AttentionAxes{"echo heads", "echo word (query)", "echo word (key)"};
  };
  d.make_training_task = [](const TaskBuild& b) -> Expected<std::unique_ptr<Task>> {
    TextDataset data = echoData(b.config.builtin.train_count, b.config.builtin.test_count,
                                static_cast<unsigned>(b.config.builtin.seed));
    ImdbWordTokenizer tokenizer = ImdbWordTokenizer::fit(
        data.train, b.config.task_settings.get<ReviewDataSettings>().min_freq);
    return std::unique_ptr<Task>(std::make_unique<EchoTask>(std::make_unique<SentimentTask>(
        b.config, std::move(data), std::move(tokenizer), b.device)));
  };
  d.make_inference_task = [](const TaskBuild& b) -> Expected<std::unique_ptr<Task>> {
    Expected<ImdbWordTokenizer> tokenizer = ImdbWordTokenizer::load(b.run_dir + "/tokenizer.json");
    if (!tokenizer.ok()) return Error{tokenizer.error()};
    TextDataset empty;
    empty.class_names = {"without yes", "with yes"};
    return std::unique_ptr<Task>(std::make_unique<EchoTask>(std::make_unique<SentimentTask>(
        b.config, std::move(empty), std::move(*tokenizer), b.device)));
  };
  return d;
}

}  // namespace

Status registerEchoTask() {
  static std::once_flag once;
  static Status result;
  std::call_once(once, [] { result = TaskRegistry::instance().add(echoDescriptor()); });
  return result;
}

}  // namespace ascope
