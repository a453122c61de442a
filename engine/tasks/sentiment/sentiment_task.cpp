#include "engine/tasks/sentiment/sentiment_task.h"

#include "engine/device/copy_to_device.h"
#include "engine/tasks/sentiment/review_data_settings.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/sentiment/word_dropout.h"

#include <algorithm>

#include "engine/models/model_flops.h"
#include "engine/nn/encoder_layer.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/classifier_evaluation.h"
#include "engine/tasks/encoder_attention_sites.h"
#include "engine/tasks/used_columns.h"

namespace ascope {
namespace {

// Batches hold reviews padded to max_len; columns past the longest review only cost time. Attention
// masks padding anyway, so dropping them changes no result.
torch::Tensor trimPadding(const torch::Tensor& ids) {
  return ids.narrow(1, 0, usedColumns(ids, ImdbWordTokenizer::kPadId));  // (B, length)
}

/// Words kept of each review (B) of `ids` (B, max_len), int64.
torch::Tensor reviewLengths(const torch::Tensor& ids) {
  return ids.ne(ImdbWordTokenizer::kPadId).sum(1).to(torch::kLong);
}

}  // namespace

SentimentTask::SentimentTask(const TrainingConfig& config, TextDataset data,
                             ImdbWordTokenizer tokenizer, const torch::Device& device)
    : config_(config),
      text_(config.task_settings.get<TextClassifierConfig>()),
      device_(device),
      data_(std::move(data)),
      tokenizer_(std::move(tokenizer)) {
  text_.vocab_size = static_cast<int64_t>(tokenizer_.vocabSize());
  text_.word_pairs = static_cast<int64_t>(tokenizer_.pairs().size());
  text_.pad_id = ImdbWordTokenizer::kPadId;
  text_.num_classes = 2;
  for (DataSplit split : {DataSplit::kTrain, DataSplit::kValidation, DataSplit::kTest}) {
    const std::size_t k = splitSlot(split);
    ids_[k] = encodeAll(splitSamples(data_, split), &labels_[k]);
  }
  word_dropout_ = config_.task_settings.get<ReviewDataSettings>().word_dropout;
  model_ = TextClassifier(text_);
  model_->to(device_);
  if (text_.word_pairs > 0) model_->setWordPairs(torch::tensor(tokenizer_.pairs().keys()));
  const std::string& optimizer = config_.optimization.optimizer;
  model_->setSparseEmbeddingGradient(device_.is_cpu() && config_.optimization.grad_clip == 0 &&
                                     (optimizer == "adam" || optimizer == "adamw"));
}

torch::Tensor SentimentTask::encodeAll(const std::vector<TextSample>& samples,
                                       torch::Tensor* labels) const {
  const int64_t n = static_cast<int64_t>(samples.size());
  const int64_t len = text_.max_len;
  torch::Tensor ids = torch::empty({n, len}, torch::kLong);
  *labels = torch::empty({n}, torch::kLong);
  for (int64_t i = 0; i < n; ++i) {
    tokenizer_.encodeInto(samples[i].text, static_cast<std::size_t>(len),
                          ids.data_ptr<int64_t>() + i * len);
    labels->data_ptr<int64_t>()[i] = samples[i].label;
  }
  return ids;
}

std::string SentimentTask::describe() const {
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  const auto& t = text_;
  return "text classifier " + std::to_string(t.layers) + " layer(s) × " + std::to_string(t.heads) +
         " heads, d_model " + std::to_string(t.d_model) + ", vocabulary " +
         std::to_string(t.vocab_size) +
         (t.bigram_buckets > 0 ? ", " + std::to_string(t.bigram_buckets) + " word-pair buckets"
                               : std::string()) +
         (t.word_pairs > 0 ? ", " + std::to_string(t.word_pairs) + " word pairs (seen " +
                                 std::to_string(tokenizer_.pairs().minCount()) + "+ times)"
                           : std::string()) +
         ", " + std::to_string(parameters) + " parameters; " + std::to_string(trainSize()) +
         " training / " + std::to_string(validationSize()) + " validation / " +
         std::to_string(testSize()) + " test reviews";
}

BatchOutcome SentimentTask::trainBatch(const std::vector<int64_t>& indices) {
  const torch::Tensor index = torch::tensor(indices, torch::kLong);
  const torch::Tensor ids = copyToDevice(trimPadding(ids_[0].index_select(0, index)), device_);
  const torch::Tensor labels = copyToDevice(labels_[0].index_select(0, index), device_);
  const torch::Tensor logits =
      model_(dropWords(ids, word_dropout_, text_.pad_id, text_.max_len));  // (B, 2)
  return classifierBatchOutcome(logits, labels, config_.optimization.label_smoothing);
}

std::vector<int64_t> SentimentTask::trainingLengths() const {
  // Words kept of each review (at most max_len): a batch costs its longest review's length.
  const torch::Tensor words = reviewLengths(ids_[0]);
  return std::vector<int64_t>(words.data_ptr<int64_t>(), words.data_ptr<int64_t>() + words.numel());
}

double SentimentTask::trainingFlops(const std::vector<int64_t>& indices) const {
  // The columns trainBatch keeps after trimming the padding every review of the batch shares.
  const torch::Tensor ids = ids_[0].index_select(0, torch::tensor(indices, torch::kLong));
  return trainingStepFlops(text_, static_cast<int64_t>(indices.size()), trimPadding(ids).size(1));
}

torch::Tensor SentimentTask::logitsOf(DataSplit split, int64_t start, int64_t count) {
  // Held-out reviews come in their split's order, so nearly every batch of them holds one as long
  // as max_len, and padding the whole batch to it cost far more than the words (attention is
  // quadratic in the padded length): the real preset's 2,500 validation reviews took 208 s and
  // 4.7 GB, in groups of similar length 27 s and 0.9 GB, with the same figures. Each group is
  // trimmed to its longest review and the scores go back to the reviews' order; padding is masked,
  // so every review gets the answer it gets alone.
  const torch::Tensor ids = ids_[splitSlot(split)].narrow(0, start, count);
  const torch::Tensor order = torch::argsort(reviewLengths(ids));
  torch::Tensor logits;
  for (int64_t from = 0; from < count; from += kLengthGroup) {
    const torch::Tensor rows = order.narrow(0, from, std::min(kLengthGroup, count - from));
    const torch::Tensor part =
        model_(copyToDevice(trimPadding(ids.index_select(0, rows)), device_));
    if (!logits.defined()) logits = torch::empty({count, part.size(1)}, part.options());
    logits.index_copy_(0, copyToDevice(rows, device_), part);
  }
  return logits;
}

EvaluationOutcome SentimentTask::evaluate(DataSplit split, int max_samples,
                                          FigureSamples /*figures*/) {
  return evaluateClassifier(
      *model_, labels_[splitSlot(split)], max_samples, 256,
      [this, split](int64_t start, int64_t count) { return logitsOf(split, start, count); });
}

Expected<std::vector<ScoredSample>> SentimentTask::scoreSplit(DataSplit split,
                                                              const ScoringProgress& progress) {
  const std::vector<TextSample>& samples = splitSamples(data_, split);
  return scoreClassifierRows(
      *model_, labels_[splitSlot(split)], 256,
      [this, split](int64_t start, int64_t count) { return logitsOf(split, start, count); },
      data_.class_names,
      [&](int64_t row, SamplePrediction& p) {
        p.task = kSentimentTaskId;
        p.input = samples[static_cast<std::size_t>(row)].text;
      },
      progress);
}

AttentionSnapshot SentimentTask::attentionOf(const torch::Tensor& ids,
                                             std::vector<std::string> tokens,
                                             torch::Tensor* logits) {
  // An input without a single word still gets a row: the GUI has something to label.
  if (tokens.empty()) tokens.push_back("(empty)");
  std::vector<torch::Tensor> attention;
  *logits = model_(copyToDevice(ids, device_), &attention);
  AttentionSnapshot snapshot;
  snapshot.task = kSentimentTaskId;
  snapshot.sample_index = -1;
  snapshot.groups.push_back(toAttentionGroup("encoder", attention, tokens, tokens));
  return snapshot;
}

AttentionSnapshot SentimentTask::probeAttention(int index) {
  torch::NoGradGuard no_grad;
  index = index % std::max<int64_t>(1, validationSize());
  model_->eval();
  torch::Tensor logits;
  AttentionSnapshot snapshot = attentionOf(
      ids_[1].narrow(0, index, 1),
      tokenizer_.tokens(data_.validation[index].text, static_cast<std::size_t>(text_.max_len)),
      &logits);
  model_->train();
  snapshot.sample_index = index;
  return snapshot;
}

SamplePrediction SentimentTask::validationSample(int64_t row) const {
  const TextSample& review = data_.validation[static_cast<std::size_t>(row)];
  SamplePrediction p;
  p.task = kSentimentTaskId;
  p.sample_index = static_cast<int>(row);
  p.input = review.text;
  p.expected = data_.class_names[review.label];
  return p;
}

SamplePrediction SentimentTask::predictSample(int index) {
  SamplePrediction p = validationSample(index % std::max<int64_t>(1, validationSize()));
  recordPrediction(classify(p.input, /*with_attention=*/false), &p);
  return p;
}

std::vector<AttentionSnapshot> SentimentTask::probeSamples(const std::vector<int>& indices) {
  const std::vector<int64_t> rows = validationRows(indices);
  std::vector<AttentionSnapshot> snapshots;
  if (rows.empty()) return snapshots;
  torch::NoGradGuard no_grad;
  model_->eval();
  std::vector<torch::Tensor> attention;  // per layer (B, H, T, T)
  const torch::Tensor logits =
      model_(copyToDevice(ids_[1].index_select(0, torch::tensor(rows, torch::kLong)), device_),
             &attention);
  const torch::Tensor probabilities = torch::softmax(logits, -1).to(torch::kCPU);  // (B, 2)
  model_->train();
  const std::vector<std::string> names = answerNames();
  const auto max_len = static_cast<std::size_t>(text_.max_len);
  for (std::size_t b = 0; b < rows.size(); ++b) {
    const auto row = static_cast<int64_t>(b);
    SamplePrediction p = validationSample(rows[b]);
    recordClassProbabilities(probabilities[row], names, &p);
    std::vector<std::string> tokens = tokenizer_.tokens(p.input, max_len);
    if (tokens.empty()) tokens.push_back("(empty)");  // as attentionOf labels it
    AttentionSnapshot snapshot;
    snapshot.task = kSentimentTaskId;
    snapshot.sample_index = p.sample_index;
    snapshot.groups.push_back(toAttentionGroup("encoder", attention, tokens, tokens, row));
    snapshot.sample = std::move(p);
    snapshots.push_back(std::move(snapshot));
  }
  return snapshots;
}

PositionalEncodingSnapshot SentimentTask::positionalEncoding() {
  return positionTableSnapshot(model_->positionMatrix(), text_.positional);
}

std::vector<AttentionSite> SentimentTask::attentionSites() {
  // One of the two position modules is set, as the run's "positional" says.
  PositionSource positions;
  positions.record =
      model_->learned ? recordSumsOf(model_->learned) : recordSumsOf(model_->sinusoidal);
  return encoderAttentionSites(model_->layers, "encoder", positions);  // as attentionOf names it
}

Status SentimentTask::saveArtifacts(const std::string& run_dir) const {
  return tokenizer_.save(run_dir + "/tokenizer.json");
}

Expected<InferenceOutcome> SentimentTask::inferText(const std::string& text) {
  return classify(text, /*with_attention=*/true);
}

Expected<InferenceOutcome> SentimentTask::classify(const std::string& text, bool with_attention) {
  // Nothing to read would still get a confident-looking answer (the padding's class).
  if (text.find_first_not_of(" \t\r\n\v\f") == std::string::npos) {
    return Error{"the text is empty: give a review to classify"};
  }
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  const auto max_len = static_cast<std::size_t>(text_.max_len);
  const torch::Tensor input =
      torch::tensor(tokenizer_.encode(text, max_len), torch::kLong).unsqueeze(0);
  InferenceOutcome out;
  torch::Tensor logits;
  if (with_attention) {
    out.attention = attentionOf(input, tokenizer_.tokens(text, max_len), &logits);
  } else {
    logits = model_(copyToDevice(input, device_));
  }
  const torch::Tensor probs = torch::softmax(logits, -1)[0].to(torch::kCPU);  // (2)
  model_->train(was_training);
  rankClasses(probs, answerNames(), &out);
  return out;
}

std::vector<std::string> SentimentTask::answerNames() const {
  return data_.class_names.size() == 2 ? data_.class_names
                                       : std::vector<std::string>{"negative", "positive"};
}

}  // namespace ascope
