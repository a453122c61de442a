#include "engine/tasks/letter_reversal/letter_reversal_task.h"

#include <torch/nn/functional/loss.h>

#include <algorithm>

#include "engine/device/copy_to_device.h"
#include "engine/device/host_read.h"
#include "engine/scoring/edit_distance.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/encoder_attention_sites.h"
#include "engine/tasks/letter_reversal/letter_reversal_descriptor.h"
#include "engine/tasks/letter_reversal/letter_words.h"
#include "engine/vocabulary/payloads/text_alignment.h"

namespace ascope {
namespace {

constexpr int64_t kBatch = 512;

/// The ids of `words` and of their reversals, stacked (N, max_letters + 1).
void stackWords(const std::vector<std::string>& words, int max_letters, torch::Tensor* ids,
                torch::Tensor* targets) {
  const auto n = static_cast<int64_t>(words.size());
  const int64_t width = max_letters + 1;
  *ids = torch::empty({n, width}, torch::kLong);
  *targets = torch::empty({n, width}, torch::kLong);
  for (int64_t i = 0; i < n; ++i) {
    const std::string& w = words[static_cast<std::size_t>(i)];
    std::copy_n(letterIds(w, max_letters).data(), width, ids->data_ptr<int64_t>() + i * width);
    std::copy_n(reversedLetterIds(w, max_letters).data(), width,
                targets->data_ptr<int64_t>() + i * width);
  }
}

std::string reversed(const std::string& word) {
  return std::string(word.rbegin(), word.rend());
}

double meanEditDistance(const std::vector<std::string>& words,
                        const std::vector<std::string>& answers) {
  if (words.empty()) return 0;
  double total = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    total += static_cast<double>(editDistance(answers[i], reversed(words[i])));
  }
  return total / static_cast<double>(words.size());
}

}  // namespace

LetterReversalTask::LetterReversalTask(const TrainingConfig& config,
                                       std::array<std::vector<std::string>, 3> words,
                                       const torch::Device& device)
    : config_(config),
      settings_(config.task_settings.get<LetterReversalConfig>()),
      device_(device),
      words_(std::move(words)) {
  for (std::size_t k = 0; k < 3; ++k) {
    stackWords(words_[k], static_cast<int>(settings_.max_letters), &ids_[k], &targets_[k]);
  }
  model_ = LetterReversalModel(settings_);
  model_->to(device_);
}

SplitOrigins LetterReversalTask::splitOrigins() const {
  return {"generated words of their own seed", "generated words of their own seed"};
}

std::string LetterReversalTask::describe() const {
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  return "letter-reversal encoder " + std::to_string(settings_.layers) + " layer(s) × " +
         std::to_string(settings_.heads) + " heads, d_model " + std::to_string(settings_.d_model) +
         ", " + std::to_string(parameters) + " parameters; " + std::to_string(trainSize()) +
         " training / " + std::to_string(validationSize()) + " validation / " +
         std::to_string(testSize()) + " test words of 3 to " +
         std::to_string(settings_.max_letters) + " letters";
}

BatchOutcome LetterReversalTask::trainBatch(const std::vector<int64_t>& indices) {
  const torch::Tensor index = torch::tensor(indices, torch::kLong);
  const torch::Tensor ids = copyToDevice(ids_[0].index_select(0, index), device_);  // (B, T)
  const torch::Tensor targets =
      copyToDevice(targets_[0].index_select(0, index), device_);  // (B, T)
  const torch::Tensor logits = model_(ids);                       // (B, T, V)
  BatchOutcome out;
  out.loss = torch::nn::functional::cross_entropy(
      logits.reshape({-1, kLetterVocabulary}), targets.reshape({-1}),
      torch::nn::functional::CrossEntropyFuncOptions()
          .ignore_index(kLetterPadId)
          .label_smoothing(config_.optimization.label_smoothing));
  const torch::Tensor counted = targets.ne(kLetterPadId);
  const torch::Tensor right = logits.argmax(-1).eq(targets).logical_and(counted);
  out.correct = right.sum();
  out.counted = counted.sum();
  out.samples = static_cast<int64_t>(indices.size());
  return out;
}

double LetterReversalTask::trainingFlops(const std::vector<int64_t>& indices) const {
  return letterReversalStepFlops(settings_, static_cast<int64_t>(indices.size()));
}

LetterReversalTask::Answers LetterReversalTask::answer(const torch::Tensor& ids,
                                                       const torch::Tensor& targets) {
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  Answers out;
  for (int64_t start = 0; start < ids.size(0); start += kBatch) {
    const int64_t n = std::min(kBatch, ids.size(0) - start);
    const torch::Tensor batch = copyToDevice(ids.narrow(0, start, n), device_);
    const torch::Tensor wanted = copyToDevice(targets.narrow(0, start, n), device_);
    const torch::Tensor logits = model_(batch);  // (n, T, V)
    const torch::Tensor losses = torch::nn::functional::cross_entropy(
                                     logits.reshape({-1, kLetterVocabulary}), wanted.reshape({-1}),
                                     torch::nn::functional::CrossEntropyFuncOptions()
                                         .ignore_index(kLetterPadId)
                                         .reduction(torch::kNone))
                                     .reshape({n, -1});     // (n, T), 0 at PAD
    const torch::Tensor counted = wanted.ne(kLetterPadId);  // (n, T)
    const torch::Tensor chosen = logits.argmax(-1);         // (n, T)
    const torch::Tensor right = chosen.eq(wanted).logical_and(counted);
    // One copy of the batch's answers to the host: the letters chosen, then each word's loss,
    // letters counted and letters right.
    const int64_t width = chosen.size(1);
    const torch::Tensor read =
        copyToHost(torch::cat({chosen.to(torch::kDouble), losses.sum(1, true).to(torch::kDouble),
                               counted.sum(1, true).to(torch::kDouble),
                               right.sum(1, true).to(torch::kDouble)},
                              1))
            .contiguous();  // (n, T + 3)
    const torch::Tensor rows = read.narrow(1, 0, width).to(torch::kLong).contiguous();
    const torch::Tensor figures = read.narrow(1, width, 3).contiguous();
    const auto f = figures.accessor<double, 2>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t* p = rows.data_ptr<int64_t>() + i * width;
      out.words.push_back(lettersOf(std::vector<int64_t>(p, p + width)));
      const auto c = static_cast<int64_t>(f[i][1]);
      out.counted.push_back(c);
      out.correct.push_back(static_cast<int64_t>(f[i][2]));
      out.loss.push_back(c > 0 ? f[i][0] / static_cast<double>(c) : 0.0);
    }
  }
  model_->train(was_training);
  return out;
}

EvaluationOutcome LetterReversalTask::evaluate(DataSplit split, int max_samples,
                                               FigureSamples /*figures*/) {
  const std::size_t k = splitSlot(split);
  const int64_t n = max_samples > 0 ? std::min<int64_t>(max_samples, count(k)) : count(k);
  const Answers a = answer(ids_[k].narrow(0, 0, n), targets_[k].narrow(0, 0, n));
  EvaluationOutcome out;
  double loss = 0;
  int64_t right = 0, counted = 0;
  for (std::size_t i = 0; i < a.words.size(); ++i) {
    loss += a.loss[i] * static_cast<double>(a.counted[i]);
    right += a.correct[i];
    counted += a.counted[i];
  }
  out.loss = counted > 0 ? loss / static_cast<double>(counted) : 0;
  out.accuracy = counted > 0 ? static_cast<double>(right) / static_cast<double>(counted) : 0;
  const std::vector<std::string> words(words_[k].begin(), words_[k].begin() + n);
  if (!words.empty()) out.figures.set(kEditDistanceKey, meanEditDistance(words, a.words));
  return out;
}

Expected<std::vector<ScoredSample>> LetterReversalTask::scoreSplit(
    DataSplit split, const ScoringProgress& progress) {
  const std::size_t k = splitSlot(split);
  std::vector<ScoredSample> out;
  for (int64_t start = 0; start < count(k); start += kBatch) {
    if (progress.cancelled()) return Error{"cancelled"};
    const int64_t n = std::min(kBatch, count(k) - start);
    const Answers a = answer(ids_[k].narrow(0, start, n), targets_[k].narrow(0, start, n));
    for (int64_t i = 0; i < n; ++i) {
      const auto at = static_cast<std::size_t>(i);
      ScoredSample s;
      s.index = start + i;
      s.prediction = predictionOf(words_[k][static_cast<std::size_t>(start + i)], a.words[at],
                                  static_cast<int>(start + i));
      s.loss = a.loss[at];
      s.correct_tokens = a.correct[at];
      s.counted_tokens = a.counted[at];
      out.push_back(std::move(s));
    }
    progress(start + n, count(k));
  }
  return out;
}

EvaluationOutcome LetterReversalTask::summarizeScores(
    const std::vector<ScoredSample>& scored) const {
  EvaluationOutcome out;
  double loss = 0, distance = 0;
  int64_t right = 0, counted = 0;
  for (const ScoredSample& s : scored) {
    loss += s.loss * static_cast<double>(s.counted_tokens);
    right += s.correct_tokens;
    counted += s.counted_tokens;
    distance += static_cast<double>(editDistance(s.prediction.answer, s.prediction.expected));
  }
  out.loss = counted > 0 ? loss / static_cast<double>(counted) : 0;
  out.accuracy = counted > 0 ? static_cast<double>(right) / static_cast<double>(counted) : 0;
  if (!scored.empty()) {
    out.figures.set(kEditDistanceKey, distance / static_cast<double>(scored.size()));
  }
  return out;
}

SamplePrediction LetterReversalTask::predictionOf(const std::string& word,
                                                  const std::string& answer, int index) const {
  SamplePrediction p;
  p.task = kLetterReversalTaskId;
  p.sample_index = index;
  p.input = word;
  p.expected = reversed(word);
  p.answer = answer;
  p.correct = p.answer == p.expected;
  p.probability = p.correct ? 1.0 : 0.0;
  p.payloads.put(makePayload(TextAlignment::align(p.expected, p.answer)));
  return p;
}

InferenceOutcome LetterReversalTask::ask(const std::string& word) {
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  const int max_letters = static_cast<int>(settings_.max_letters);
  const std::vector<int64_t> ids = letterIds(word, max_letters);
  std::vector<torch::Tensor> attention;
  const torch::Tensor logits =
      model_(copyToDevice(torch::tensor(ids, torch::kLong).unsqueeze(0), device_),
             &attention);  // (1, T, V)
  model_->train(was_training);
  const torch::Tensor chosen = logits[0].argmax(-1).to(torch::kCPU).contiguous();  // (T)
  const std::vector<int64_t> written(chosen.data_ptr<int64_t>(),
                                     chosen.data_ptr<int64_t>() + chosen.size(0));
  // What matters of the (T, T) weights: the positions that write the answer and its END (rows
  // 0..n, labelled by what each wrote) reading the word and its START (the last n + 1 columns).
  const auto width = static_cast<int64_t>(ids.size());
  const auto n = static_cast<int64_t>(std::min<std::size_t>(word.size(), ids.size() - 1));
  std::vector<std::string> keys, writes;
  for (int64_t k = width - n - 1; k < width; ++k) keys.push_back(letterTokenLabel(ids[k]));
  for (int64_t q = 0; q <= n; ++q) writes.push_back(letterTokenLabel(written[q]));
  std::vector<torch::Tensor> read;  // per layer (1, H, T, n + 1)
  for (const torch::Tensor& layer : attention)
    read.push_back(layer.narrow(3, width - n - 1, n + 1));
  InferenceOutcome out;
  out.label = lettersOf(written);
  out.attention.task = kLetterReversalTaskId;
  out.attention.sample_index = -1;
  out.attention.groups.push_back(toAttentionGroup("encoder", read, writes, keys));
  out.attention.groups.back().col_offset = static_cast<int>(width - n - 1);
  return out;
}

AttentionSnapshot LetterReversalTask::probeAttention(int index) {
  index = static_cast<int>(index % std::max<int64_t>(1, validationSize()));
  AttentionSnapshot snapshot = ask(words_[1][static_cast<std::size_t>(index)]).attention;
  snapshot.sample_index = index;
  return snapshot;
}

SamplePrediction LetterReversalTask::predictSample(int index) {
  index = static_cast<int>(index % std::max<int64_t>(1, validationSize()));
  const std::string& word = words_[1][static_cast<std::size_t>(index)];
  return predictionOf(word, ask(word).label, index);
}

PositionalEncodingSnapshot LetterReversalTask::positionalEncoding() {
  return positionTableSnapshot(model_->positions->matrix(), "learned");
}

std::vector<AttentionSite> LetterReversalTask::attentionSites() {
  return encoderAttentionSites(model_->layers, "encoder",
                               {recordSumsOf(model_->positions)});  // as ask names the group
}

Status LetterReversalTask::saveArtifacts(const std::string& /*run_dir*/) const {
  return {};  // letters need no tokenizer
}

Expected<InferenceOutcome> LetterReversalTask::inferText(const std::string& text) {
  Expected<std::string> word = parseLetterWord(text, static_cast<int>(settings_.max_letters));
  if (!word.ok()) return Error{word.error()};
  return ask(*word);
}

}  // namespace ascope
