#include "engine/tasks/translation/translation_task.h"

#include "engine/tasks/translation/translation_descriptor.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "engine/core/json_file.h"
#include "engine/device/copy_to_device.h"
#include "engine/device/host_read.h"
#include "engine/models/model_flops.h"
#include "engine/nn/decoder_layer.h"
#include "engine/nn/encoder_layer.h"
#include "engine/nn/token_cross_entropy.h"
#include "engine/scoring/edit_distance.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/encoder_attention_sites.h"
#include "engine/tasks/translation/translation_scores.h"
#include "engine/text/pieces/translation_pair_filter.h"
#include "engine/vocabulary/beam_payload.h"

namespace ascope {
namespace {

using Tok = TranslationWordTokenizer;

/// Next-token candidates kept per decoding step.
constexpr int64_t kDecodingCandidates = 5;

/// Rows padded to the longest of them, or to `at_least` columns when that is more.
torch::Tensor padRows(const std::vector<std::vector<int64_t>>& rows, const torch::Device& device,
                      int64_t at_least = 0) {
  std::size_t longest = std::max<std::size_t>(1, static_cast<std::size_t>(at_least));
  for (const auto& r : rows) longest = std::max(longest, r.size());
  torch::Tensor out =
      torch::full({static_cast<int64_t>(rows.size()), static_cast<int64_t>(longest)}, Tok::kPadId,
                  torch::kLong);
  auto* data = out.data_ptr<int64_t>();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::copy(rows[i].begin(), rows[i].end(), data + i * longest);
  }
  return copyToDevice(out, device);  // (B, T)
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f %%", 100.0 * share);
  return text;
}

}  // namespace

TranslationTask::TranslationTask(const TrainingConfig& config, TranslationDataset data,
                                 TranslationTokenizer source_tokenizer,
                                 TranslationTokenizer target_tokenizer, const torch::Device& device,
                                 int64_t pad_to)
    : config_(config),
      translator_(config.task_settings.get<TranslatorConfig>()),
      data_settings_(config.task_settings.get<TranslationDataSettings>()),
      device_(device),
      source_tokenizer_(std::move(source_tokenizer)),
      target_tokenizer_(std::move(target_tokenizer)),
      pad_to_(pad_to) {
  translator_.source_vocab_size = static_cast<int64_t>(source_tokenizer_.vocabSize());
  translator_.target_vocab_size = static_cast<int64_t>(target_tokenizer_.vocabSize());
  translator_.pad_id = Tok::kPadId;
  const auto seq_len = static_cast<std::size_t>(translator_.seq_len);
  // Training pairs that do not fit are dropped (the reference refuses them); held-out ones never
  // are: a test that skipped the long sentences would flatter the model.
  FilteredPairs train =
      filterPairsBySeqLen(data.train, source_tokenizer_, target_tokenizer_, seq_len);
  dropped_ = train.dropped;
  text_[0] = std::move(train.kept);
  text_[1] = std::move(data.validation);
  text_[2] = std::move(data.test);
  for (const auto& p : text_[0]) encoded_[0].push_back(encodePair(p));
  for (std::size_t k : {std::size_t{1}, std::size_t{2}}) {
    for (const auto& p : text_[k]) encoded_[k].push_back(encodeHeldOutPair(p));
  }
  std::array<std::size_t, 2> unknown{}, all{};
  for (const EncodedPair& p : encoded_[0]) {
    // The source's [SOS] and [EOS] are no text.
    for (std::size_t i = 1; i + 1 < p.source.size(); ++i) unknown[0] += p.source[i] == Tok::kUnkId;
    for (const int64_t id : p.target) unknown[1] += id == Tok::kUnkId;
    all[0] += p.source.size() >= 2 ? p.source.size() - 2 : 0;
    all[1] += p.target.size();
  }
  for (std::size_t side : {std::size_t{0}, std::size_t{1}}) {
    unknown_share_[side] =
        all[side] == 0 ? 0.0 : static_cast<double>(unknown[side]) / static_cast<double>(all[side]);
  }
  origins_ = std::move(data.origins);
  model_ = Seq2SeqTranslator(translator_);
  model_->to(device_);
}

std::vector<int64_t> TranslationTask::encodeSource(const std::string& text) const {
  std::vector<int64_t> ids{Tok::kSosId};
  for (int64_t id : source_tokenizer_.encode(text)) ids.push_back(id);
  const auto limit = static_cast<std::size_t>(translator_.seq_len - 1);
  if (ids.size() > limit) ids.resize(limit);
  ids.push_back(Tok::kEosId);
  return ids;
}

TranslationTask::EncodedPair TranslationTask::encodePair(const TranslationPair& pair) const {
  return {encodeSource(pair.source), target_tokenizer_.encode(pair.target)};
}

TranslationTask::EncodedPair TranslationTask::encodeHeldOutPair(const TranslationPair& pair) const {
  EncodedPair encoded = encodePair(pair);
  const auto room = static_cast<std::size_t>(std::max<int64_t>(1, translator_.seq_len - 1));
  if (encoded.target.size() > room) encoded.target.resize(room);
  return encoded;
}

std::string TranslationTask::describe() const {
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  const auto& t = translator_;
  return "translator " + std::to_string(t.encoder_layers) + "+" + std::to_string(t.decoder_layers) +
         " layers × " + std::to_string(t.heads) + " heads, d_model " + std::to_string(t.d_model) +
         ", vocabularies " + std::to_string(t.source_vocab_size) + "/" +
         std::to_string(t.target_vocab_size) + " " + source_tokenizer_.kind() + " ([UNK] " +
         percent(unknown_share_[0]) + "/" + percent(unknown_share_[1]) +
         " of the training tokens), " + std::to_string(parameters) + " parameters; " +
         std::to_string(trainSize()) + " training / " + std::to_string(validationSize()) +
         " validation / " + std::to_string(testSize()) + " test pairs (" +
         std::to_string(dropped_) + " training pairs dropped as longer than seq_len)";
}

TranslationTask::Batch TranslationTask::makeBatch(
    const std::vector<const EncodedPair*>& pairs) const {
  std::vector<std::vector<int64_t>> sources, inputs, labels;
  for (const EncodedPair* p : pairs) {
    sources.push_back(p->source);
    std::vector<int64_t> input{Tok::kSosId};  // [SOS] words
    input.insert(input.end(), p->target.begin(), p->target.end());
    std::vector<int64_t> label = p->target;  // words [EOS]
    label.push_back(Tok::kEosId);
    inputs.push_back(std::move(input));
    labels.push_back(std::move(label));
  }
  return {padRows(sources, device_, pad_to_), padRows(inputs, device_, pad_to_),
          padRows(labels, device_, pad_to_)};
}

std::pair<int64_t, int64_t> TranslationTask::paddedLengths(
    const std::vector<int64_t>& indices) const {
  int64_t source = std::max<int64_t>(1, pad_to_), decoder = source;
  for (int64_t i : indices) {
    const EncodedPair& p = encoded_[0][static_cast<std::size_t>(i)];
    source = std::max(source, static_cast<int64_t>(p.source.size()));
    decoder = std::max(decoder, static_cast<int64_t>(p.target.size()) + 1);  // [SOS] words
  }
  return {source, decoder};
}

std::vector<int64_t> TranslationTask::trainingLengths() const {
  std::vector<int64_t> lengths;
  lengths.reserve(encoded_[0].size());
  for (const EncodedPair& p : encoded_[0]) {
    lengths.push_back(static_cast<int64_t>(p.source.size() + p.target.size() + 1));
  }
  return lengths;
}

double TranslationTask::trainingFlops(const std::vector<int64_t>& indices) const {
  const auto [source, decoder] = paddedLengths(indices);
  return trainingStepFlops(translator_, static_cast<int64_t>(indices.size()), source, decoder);
}

int64_t TranslationTask::longestTrainingSide() const {
  std::size_t longest = 0;
  for (const EncodedPair& p : encoded_[0]) {
    longest = std::max({longest, p.source.size(), p.target.size() + 1});
  }
  return static_cast<int64_t>(longest);
}

BatchOutcome TranslationTask::lossOf(const Batch& batch) {
  const torch::Tensor logits = model_(batch.source, batch.decoder_input);  // (B, Tt, V)
  const int64_t vocab = logits.size(-1);
  BatchOutcome out;
  const torch::Tensor real = batch.labels.ne(Tok::kPadId);
  out.correct = logits.argmax(-1).eq(batch.labels).logical_and(real).sum();
  out.counted = real.sum();
  // The mean over the real tokens, as cross_entropy's, without its waits (token_cross_entropy.h).
  out.loss = tokenCrossEntropy(logits.reshape({-1, vocab}), batch.labels.reshape(-1), Tok::kPadId,
                               config_.optimization.label_smoothing)
                 .sum()
                 .div(out.counted.clamp_min(1));
  out.samples = batch.source.size(0);
  return out;
}

BatchOutcome TranslationTask::trainBatch(const std::vector<int64_t>& indices) {
  std::vector<const EncodedPair*> pairs;
  for (int64_t i : indices) pairs.push_back(&encoded_[0][static_cast<std::size_t>(i)]);
  return lossOf(makeBatch(pairs));
}

std::vector<std::vector<int64_t>> TranslationTask::greedyDecode(
    const std::vector<std::vector<int64_t>>& sources, std::vector<std::vector<ChosenStep>>* steps) {
  if (steps != nullptr) steps->assign(sources.size(), {});
  if (sources.empty()) return {};
  const torch::Tensor source = padRows(sources, device_);  // (B, Ts)
  const torch::Tensor memory = model_->encode(source);     // (B, Ts, d)
  const int64_t batch = source.size(0);
  torch::Tensor target = torch::full({batch, 1}, Tok::kSosId,
                                     torch::TensorOptions().dtype(torch::kLong).device(device_));
  torch::Tensor finished =
      torch::zeros({batch}, torch::TensorOptions().dtype(torch::kBool).device(device_));
  // A translation is rarely more than twice as long as its source: an untrained model that never
  // says [EOS] stops there instead of at seq_len (350 tokens: 12 MB of decoder attention per
  // probed sentence of the seed model, and minutes of decoding per evaluation). Each source has
  // its own limit, so a sentence decodes the same alone or in a batch.
  std::vector<int64_t> limits;
  for (const std::vector<int64_t>& s : sources) limits.push_back(lengthLimit(s));
  const int64_t length_limit = *std::max_element(limits.begin(), limits.end());
  const torch::Tensor row_limits = torch::tensor(limits, torch::kLong).to(device_);
  for (int64_t t = 1; t < length_limit; ++t) {
    torch::Tensor logits =
        model_->project(model_->decode(target, memory, source).select(1, -1));  // (B, V)
    // [UNK] is never said: it stands for "a word too rare to learn", which no reader can use and
    // the written translation would drop, so the best real word is said instead.
    logits.select(-1, Tok::kUnkId).fill_(-std::numeric_limits<float>::infinity());
    torch::Tensor next = logits.argmax(-1);
    // A finished sentence keeps emitting padding, which decoding ignores.
    next = next.masked_fill(finished, Tok::kPadId);
    if (steps != nullptr) {
      // A source that said [EOS] at an earlier step has nothing more to choose.
      const torch::Tensor open = finished.logical_not().nonzero().flatten();
      std::vector<ChosenStep> read = candidatesOf(logits.index_select(0, open));
      const torch::Tensor rows = open.to(torch::kCPU), fed = next.to(torch::kCPU);
      const auto row = rows.accessor<int64_t, 1>();
      const auto chosen = fed.accessor<int64_t, 1>();
      for (int64_t j = 0; j < row.size(0); ++j) {
        // The argmax, not the first candidate: on a tie the two may differ, and this one was fed.
        read[static_cast<std::size_t>(j)].chosen = chosen[row[j]];
        (*steps)[static_cast<std::size_t>(row[j])].push_back(
            std::move(read[static_cast<std::size_t>(j)]));
      }
    }
    finished = finished.logical_or(next.eq(Tok::kEosId)).logical_or(row_limits.le(t + 1));
    target = torch::cat({target, next.unsqueeze(1)}, 1);
    if (finished.all().item<bool>()) break;  // sync point, once per token
  }
  const torch::Tensor cpu = target.to(torch::kCPU);
  std::vector<std::vector<int64_t>> out(static_cast<std::size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t t = 1; t < cpu.size(1); ++t) {
      const int64_t id = cpu[b][t].item<int64_t>();
      if (id == Tok::kEosId || id == Tok::kPadId) break;
      out[b].push_back(id);
    }
  }
  return out;
}

int64_t TranslationTask::lengthLimit(const std::vector<int64_t>& source) const {
  return std::min<int64_t>(translator_.seq_len, 2 * static_cast<int64_t>(source.size()) + 10);
}

std::vector<BeamResult> TranslationTask::beamDecode(
    const std::vector<std::vector<int64_t>>& sources, bool keep_tree) {
  if (sources.empty()) return {};
  const torch::Tensor source = padRows(sources, device_);  // (S, Ts)
  const torch::Tensor memory = model_->encode(source);     // (S, Ts, d)
  const NextTokenLogProbs next = [&](const torch::Tensor& rows, const torch::Tensor& prefixes) {
    const torch::Tensor logits = model_->project(
        model_->decode(prefixes, memory.index_select(0, rows), source.index_select(0, rows))
            .select(1, -1));  // (N, V)
    torch::Tensor log_probs = torch::log_softmax(logits.to(torch::kFloat), -1);
    // As greedy decoding: [UNK] is never said; nor are [PAD] and [SOS], which no sentence holds.
    for (int64_t never : {Tok::kUnkId, Tok::kPadId, Tok::kSosId}) {
      log_probs.select(-1, never).fill_(-std::numeric_limits<float>::infinity());
    }
    return log_probs;
  };
  // The limit counts [SOS], which the beam does not say.
  std::vector<int64_t> limits;
  for (const std::vector<int64_t>& s : sources) limits.push_back(lengthLimit(s) - 1);
  BeamSettings settings;
  settings.width = static_cast<int>(translator_.beam_width);
  settings.length_alpha = translator_.length_alpha;
  return beamSearch(next, limits, settings, {Tok::kSosId, Tok::kEosId, Tok::kPadId}, device_,
                    keep_tree);
}

TranslationTask::PairLosses TranslationTask::pairLossesOf(const Batch& batch) {
  const torch::Tensor logits = model_(batch.source, batch.decoder_input);  // (B, Tt, V)
  const int64_t b = logits.size(0), t = logits.size(1), vocab = logits.size(2);
  const torch::Tensor losses =
      tokenCrossEntropy(logits.reshape({-1, vocab}), batch.labels.reshape(-1), Tok::kPadId,
                        config_.optimization.label_smoothing)
          .reshape({b, t});                                 // (B, Tt), 0 at padding
  const torch::Tensor real = batch.labels.ne(Tok::kPadId);  // (B, Tt)
  const torch::Tensor right = logits.argmax(-1).eq(batch.labels).logical_and(real);  // (B, Tt)
  // sync point: one copy of the batch's figures to the host
  const torch::Tensor figures =
      torch::stack({losses.sum(1).to(torch::kDouble), right.sum(1).to(torch::kDouble),
                    real.sum(1).to(torch::kDouble)})
          .to(torch::kCPU);  // (3, B)
  const auto f = figures.accessor<double, 2>();
  PairLosses out;
  for (int64_t i = 0; i < b; ++i) {
    const double counted = f[2][i];
    out.loss.push_back(counted > 0 ? f[0][i] / counted : 0.0);
    out.correct.push_back(static_cast<int64_t>(f[1][i]));
    out.counted.push_back(static_cast<int64_t>(counted));
  }
  return out;
}

bool TranslationTask::translate(DataSplit split, int64_t count,
                                std::vector<std::string>* hypotheses,
                                const ScoringProgress& progress) {
  const std::vector<EncodedPair>& pairs = encoded_[splitSlot(split)];
  count = std::min<int64_t>(count, static_cast<int64_t>(pairs.size()));
  // Sources of similar length decode together: a batch runs until its longest sentence ends.
  std::vector<int64_t> order(static_cast<std::size_t>(count));
  for (int64_t i = 0; i < count; ++i) order[static_cast<std::size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&pairs](int64_t a, int64_t b) {
    return pairs[static_cast<std::size_t>(a)].source.size() <
           pairs[static_cast<std::size_t>(b)].source.size();
  });
  hypotheses->assign(static_cast<std::size_t>(count), std::string());
  constexpr int64_t kBatch = 64;
  for (int64_t start = 0; start < count; start += kBatch) {
    if (progress.cancelled()) return false;
    std::vector<std::vector<int64_t>> sources;
    const int64_t end = std::min(count, start + kBatch);
    for (int64_t k = start; k < end; ++k) {
      sources.push_back(pairs[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])].source);
    }
    std::vector<std::vector<int64_t>> decoded;
    if (translator_.beam_width > 1) {
      for (BeamResult& r : beamDecode(sources, false)) {
        decoded.push_back(r.finished.empty() ? std::vector<int64_t>{}
                                             : std::move(r.finished.front().tokens));
      }
    } else {
      decoded = greedyDecode(sources);
    }
    for (int64_t k = start; k < end; ++k) {
      (*hypotheses)[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] =
          target_tokenizer_.detokenize(decoded[static_cast<std::size_t>(k - start)]);
    }
    progress(end, count);
  }
  return true;
}

EvaluationOutcome TranslationTask::evaluate(DataSplit split, int max_samples,
                                            FigureSamples figures) {
  torch::NoGradGuard no_grad;
  model_->eval();
  const std::vector<EncodedPair>& encoded = encoded_[splitSlot(split)];
  const auto size = static_cast<int64_t>(encoded.size());
  const int64_t n = max_samples > 0 ? std::min<int64_t>(max_samples, size) : size;
  // Summed on the device and read once: the host waits for the whole pass, not for each batch.
  torch::Tensor sums =
      torch::zeros({3}, torch::TensorOptions().dtype(torch::kDouble).device(device_));
  for (int64_t start = 0; start < n; start += 128) {
    std::vector<const EncodedPair*> pairs;
    for (int64_t i = start; i < std::min<int64_t>(n, start + 128); ++i)
      pairs.push_back(&encoded[static_cast<std::size_t>(i)]);
    const BatchOutcome b = lossOf(makeBatch(pairs));
    sums += torch::stack({b.loss.detach().to(torch::kDouble) * b.counted,
                          b.correct.to(torch::kDouble), b.counted.to(torch::kDouble)});
  }
  const std::vector<double> read = readToHost({sums});
  const double loss_sum = read[0], correct = read[1], counted = read[2];
  EvaluationOutcome out;
  out.loss = counted > 0 ? loss_sum / counted : 0;
  out.accuracy = counted > 0 ? correct / counted : 0;

  const int64_t decode = figures == FigureSamples::kEvery
                             ? size
                             : std::min<int64_t>(data_settings_.decode_samples, size);
  std::vector<std::string> hypotheses, references;
  translate(split, decode, &hypotheses);
  for (int64_t i = 0; i < decode; ++i) {
    references.push_back(text_[splitSlot(split)][static_cast<std::size_t>(i)].target);
  }
  model_->train();
  if (decode > 0) {
    // Against the raw reference, as sacreBLEU scores: never a reference rebuilt from token ids.
    out.figures = translationFigures(scoreTranslations(hypotheses, references), false);
    out.figure_samples = static_cast<int>(decode);
  }
  return out;
}

EvaluationOutcome TranslationTask::summarizeScores(const std::vector<ScoredSample>& scored) const {
  EvaluationOutcome out;
  double loss = 0;
  std::int64_t right = 0, counted = 0;
  std::vector<std::string> hypotheses, references;
  for (const ScoredSample& s : scored) {
    loss += s.loss * static_cast<double>(s.counted_tokens);
    right += s.correct_tokens;
    counted += s.counted_tokens;
    hypotheses.push_back(s.prediction.answer);
    references.push_back(s.prediction.expected);
  }
  out.loss = counted > 0 ? loss / static_cast<double>(counted) : 0.0;
  out.accuracy = counted > 0 ? static_cast<double>(right) / static_cast<double>(counted) : 0.0;
  out.figures = translationFigures(scoreTranslations(hypotheses, references), true);
  return out;
}

Expected<std::vector<ScoredSample>> TranslationTask::scoreSplit(DataSplit split,
                                                                const ScoringProgress& progress) {
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  const std::size_t k = splitSlot(split);
  const auto n = static_cast<int64_t>(encoded_[k].size());
  // Half the progress for the teacher-forced losses, half for decoding.
  std::vector<ScoredSample> out(static_cast<std::size_t>(n));
  for (int64_t start = 0; start < n; start += 128) {
    if (progress.cancelled()) {
      model_->train(was_training);
      return Error{"cancelled"};
    }
    std::vector<const EncodedPair*> pairs;
    const int64_t end = std::min<int64_t>(n, start + 128);
    for (int64_t i = start; i < end; ++i)
      pairs.push_back(&encoded_[k][static_cast<std::size_t>(i)]);
    const PairLosses losses = pairLossesOf(makeBatch(pairs));
    for (int64_t i = start; i < end; ++i) {
      ScoredSample& s = out[static_cast<std::size_t>(i)];
      const auto j = static_cast<std::size_t>(i - start);
      s.index = i;
      s.loss = losses.loss[j];
      s.correct_tokens = losses.correct[j];
      s.counted_tokens = losses.counted[j];
    }
    progress(end, 2 * n);
  }
  std::vector<std::string> hypotheses;
  const bool complete = translate(
      split, n, &hypotheses,
      {[&progress, n](int64_t done, int64_t) { progress(n + done, 2 * n); }, progress.cancel});
  model_->train(was_training);
  if (!complete) return Error{"cancelled"};
  for (int64_t i = 0; i < n; ++i) {
    ScoredSample& s = out[static_cast<std::size_t>(i)];
    const TranslationPair& pair = text_[k][static_cast<std::size_t>(i)];
    s.prediction.task = kTranslationTaskId;
    s.prediction.sample_index = static_cast<int>(i);
    s.prediction.input = pair.source;
    s.prediction.expected = pair.target;
    s.prediction.answer = std::move(hypotheses[static_cast<std::size_t>(i)]);
    s.prediction.correct = normalizedSpacing(s.prediction.answer) == normalizedSpacing(pair.target);
    s.prediction.probability = s.prediction.correct ? 1.0 : 0.0;
  }
  return out;
}

std::vector<TranslationTask::ChosenStep> TranslationTask::candidatesOf(
    const torch::Tensor& logits) const {
  // Double precision keeps the fifth candidate of a confident model from rounding to 0.
  const torch::Tensor probabilities = torch::softmax(logits.to(torch::kCPU, torch::kDouble), -1);
  const int64_t k = std::min<int64_t>(kDecodingCandidates, probabilities.size(1));
  const auto [values, ids] = probabilities.topk(k, 1);
  const auto value = values.accessor<double, 2>();
  const auto id = ids.accessor<int64_t, 2>();
  std::vector<ChosenStep> steps(static_cast<std::size_t>(probabilities.size(0)));
  for (int64_t r = 0; r < probabilities.size(0); ++r) {
    ChosenStep& step = steps[static_cast<std::size_t>(r)];
    for (int64_t c = 0; c < k; ++c) {
      step.candidates.top.emplace_back(target_tokenizer_.labelOf(id[r][c]), value[r][c]);
    }
    step.chosen = k > 0 ? id[r][0] : Tok::kEosId;
  }
  return steps;
}

std::vector<AttentionSnapshot> TranslationTask::attentionOfFed(
    const std::vector<std::vector<int64_t>>& sources, const std::vector<std::vector<int64_t>>& fed,
    std::vector<std::vector<ChosenStep>> steps, bool fed_reference) {
  TranslatorAttention attention;
  torch::Tensor logits =
      model_(padRows(sources, device_), padRows(fed, device_), &attention);  // (B, Tt, V)
  // As greedyDecode: [UNK] is never said.
  logits.select(-1, Tok::kUnkId).fill_(-std::numeric_limits<float>::infinity());
  steps.resize(sources.size());
  std::vector<AttentionSnapshot> snapshots;
  snapshots.reserve(sources.size());
  for (std::size_t b = 0; b < sources.size(); ++b) {
    const std::vector<int64_t>& input = fed[b];
    std::vector<ChosenStep>& chosen = steps[b];
    // Teacher forcing, or decoding that stopped at the length limit, never asked a fed token for
    // its successor; this pass over the same tokens answers for it.
    chosen.resize(std::min(chosen.size(), input.size()));
    if (chosen.size() < input.size()) {
      const auto first = static_cast<int64_t>(chosen.size());
      std::vector<ChosenStep> read = candidatesOf(logits[static_cast<int64_t>(b)].narrow(
          0, first, static_cast<int64_t>(input.size()) - first));
      for (ChosenStep& step : read) chosen.push_back(std::move(step));
    }
    std::vector<std::string> source_labels, target_labels, predictions;
    for (int64_t id : sources[b]) source_labels.push_back(source_tokenizer_.labelOf(id));
    for (int64_t id : input) target_labels.push_back(target_tokenizer_.labelOf(id));
    AttentionSnapshot snapshot;
    snapshot.task = kTranslationTaskId;
    snapshot.sample_index = -1;
    DecodingPayload transcript;
    transcript.fed_reference = fed_reference;
    for (ChosenStep& step : chosen) {
      predictions.push_back(target_tokenizer_.labelOf(step.chosen));
      transcript.steps.push_back(std::move(step.candidates));
    }
    snapshot.payloads.put(makePayload(std::move(transcript)));
    const auto row = static_cast<int64_t>(b);
    snapshot.groups.push_back(toAttentionGroup("encoder self", attention.encoder_self,
                                               source_labels, source_labels, row));
    AttentionGroup decoder =
        toAttentionGroup("decoder self", attention.decoder_self, target_labels, target_labels, row);
    decoder.causal = true;
    decoder.row_predictions = predictions;
    snapshot.groups.push_back(std::move(decoder));
    AttentionGroup cross =
        toAttentionGroup("cross", attention.cross, target_labels, source_labels, row);
    cross.row_predictions = std::move(predictions);
    snapshot.groups.push_back(std::move(cross));
    snapshots.push_back(std::move(snapshot));
  }
  return snapshots;
}

AttentionSnapshot TranslationTask::attentionOf(const std::vector<int64_t>& source,
                                               std::vector<int64_t>* hypothesis) {
  std::vector<std::vector<ChosenStep>> steps;
  *hypothesis = greedyDecode({source}, &steps)[0];
  std::vector<int64_t> input{Tok::kSosId};
  input.insert(input.end(), hypothesis->begin(), hypothesis->end());
  return std::move(attentionOfFed({source}, {input}, std::move(steps), false).front());
}

AttentionSnapshot TranslationTask::probeAttention(int index) {
  torch::NoGradGuard no_grad;
  model_->eval();
  index = index % std::max<int64_t>(1, validationSize());
  std::vector<int64_t> hypothesis;
  AttentionSnapshot snapshot =
      attentionOf(encoded_[1][static_cast<std::size_t>(index)].source, &hypothesis);
  model_->train();
  snapshot.sample_index = index;
  return snapshot;
}

std::vector<AttentionSnapshot> TranslationTask::probeSamples(const std::vector<int>& indices) {
  const std::vector<int64_t> rows = validationRows(indices);
  if (rows.empty()) return {};
  std::vector<std::vector<int64_t>> sources, fed;
  for (int64_t row : rows) {
    const EncodedPair& pair = encoded_[1][static_cast<std::size_t>(row)];
    sources.push_back(pair.source);
    std::vector<int64_t> input{Tok::kSosId};  // the reference, as much as the decoder is fed
    input.insert(input.end(), pair.target.begin(), pair.target.end());
    fed.push_back(std::move(input));
  }
  torch::NoGradGuard no_grad;
  model_->eval();
  std::vector<AttentionSnapshot> snapshots = attentionOfFed(sources, fed, {}, true);
  model_->train();
  for (std::size_t b = 0; b < snapshots.size(); ++b) {
    snapshots[b].sample_index = static_cast<int>(rows[b]);
  }
  return snapshots;
}

SamplePrediction TranslationTask::predictionOf(std::size_t at,
                                               const std::vector<int64_t>& hypothesis) const {
  SamplePrediction p;
  p.task = kTranslationTaskId;
  p.sample_index = static_cast<int>(at);
  p.input = text_[1][at].source;
  p.expected = text_[1][at].target;  // the raw reference, as BLEU reads it
  p.answer = target_tokenizer_.detokenize(hypothesis);
  p.correct = normalizedSpacing(p.answer) == normalizedSpacing(p.expected);
  p.probability = p.correct ? 1.0 : 0.0;
  return p;
}

SamplePrediction TranslationTask::predictSample(int index) {
  std::vector<SamplePrediction> one = generatePredictions({index});
  if (one.empty()) {  // no validation pairs: nothing to translate
    SamplePrediction none;
    none.task = kTranslationTaskId;
    return none;
  }
  return std::move(one.front());
}

std::vector<SamplePrediction> TranslationTask::generatePredictions(
    const std::vector<int>& indices) {
  std::vector<SamplePrediction> predictions;
  std::vector<std::vector<int64_t>> sources;
  std::vector<std::size_t> at;
  for (int64_t row : validationRows(indices)) {
    at.push_back(static_cast<std::size_t>(row));
    sources.push_back(encoded_[1][at.back()].source);
  }
  if (at.empty()) return predictions;
  torch::NoGradGuard no_grad;
  model_->eval();
  const std::vector<std::vector<int64_t>> hypotheses = greedyDecode(sources);
  model_->train();
  for (std::size_t b = 0; b < at.size(); ++b)
    predictions.push_back(predictionOf(at[b], hypotheses[b]));
  return predictions;
}

PositionalEncodingSnapshot TranslationTask::positionalEncoding() {
  return positionTableSnapshot(model_->positionMatrix(), "sinusoidal");
}

std::vector<AttentionSite> TranslationTask::attentionSites() {
  // Group by group in attentionOf's order and names, so a site reads like a snapshot's map.
  // One position table serves both stacks: the sum that fed a first layer is told apart by
  // what reached its attention (engine/inference/attention_stages.cpp).
  const PositionSource positions{recordSumsOf(model_->positional)};
  std::vector<AttentionSite> sites =
      encoderAttentionSites(model_->encoder_layers, "encoder self", positions);
  for (std::size_t i = 0; i < model_->decoder_layers->size(); ++i) {
    auto* layer = model_->decoder_layers[i]->as<DecoderLayer>();
    AttentionSite site;
    site.group = "decoder self";
    site.layer = static_cast<int>(i);
    site.module = layer->self_attn;
    site.norm_first = layer->normFirst();
    if (i == 0) {
      site.record_positions = positions.record;
      site.input_norm = firstLayerInputNorm(positions, layer->normFirst(), layer->norm1);
    }
    sites.push_back(std::move(site));
  }
  for (std::size_t i = 0; i < model_->decoder_layers->size(); ++i) {
    auto* layer = model_->decoder_layers[i]->as<DecoderLayer>();
    AttentionSite site;
    site.group = "cross";
    site.layer = static_cast<int>(i);
    site.module = layer->cross_attn;
    site.norm_first = layer->normFirst();
    sites.push_back(std::move(site));
  }
  return sites;
}

Status TranslationTask::saveArtifacts(const std::string& run_dir) const {
  Status s = source_tokenizer_.save(run_dir, data_settings_.source_language);
  if (!s.ok()) return s;
  s = target_tokenizer_.save(run_dir, data_settings_.target_language);
  if (!s.ok()) return s;
  // config.json (the session's, written just before) records what the data fixed: the
  // vocabularies' sizes, the share of [UNK] among the training tokens, and the pieces' SHA-256,
  // which every later load checks (TranslationTokenizer::load).
  const std::string config_path = run_dir + "/config.json";
  Expected<nlohmann::json> config = readJsonFile(config_path);
  if (!config.ok() || !config->is_object()) return {};  // a folder without one: nothing to add
  nlohmann::json& translator = (*config)[TranslatorConfig::kConfigKey];
  if (!translator.is_object()) return {};
  translator["source_vocab_size"] = translator_.source_vocab_size;
  translator["target_vocab_size"] = translator_.target_vocab_size;
  translator["unknown_share"] = {{"source", unknown_share_[0]}, {"target", unknown_share_[1]}};
  if (source_tokenizer_.usesPieces()) {
    translator["source_pieces_sha256"] = source_tokenizer_.fingerprint();
    translator["target_pieces_sha256"] = target_tokenizer_.fingerprint();
  }
  return writeJsonFile(config_path, *config);
}

BeamPayload TranslationTask::beamPayloadOf(const BeamResult& beam,
                                           std::vector<AttentionSnapshot> attention) const {
  BeamPayload out;
  out.width = static_cast<int>(translator_.beam_width);
  out.length_alpha = translator_.length_alpha;
  for (const BeamNode& n : beam.nodes) {
    BeamPayload::Node node;
    node.step = n.step;
    node.parent = n.parent;
    node.token = target_tokenizer_.labelOf(n.token);
    node.log_prob = n.log_prob;
    node.score = n.score;
    node.fate = n.fate == BeamNode::Fate::kKept       ? BeamPayload::Fate::kKept
                : n.fate == BeamNode::Fate::kFinished ? BeamPayload::Fate::kFinished
                                                      : BeamPayload::Fate::kPruned;
    out.nodes.push_back(std::move(node));
  }
  for (std::size_t i = 0; i < beam.finished.size() && i < attention.size(); ++i) {
    const BeamHypothesis& h = beam.finished[i];
    out.hypotheses.push_back({target_tokenizer_.detokenize(h.tokens), h.log_prob, h.score, h.node,
                              std::move(attention[i])});
  }
  return out;
}

Expected<InferenceOutcome> TranslationTask::inferText(const std::string& text) {
  // Nothing to translate would still decode a made-up sentence from the start token alone.
  if (text.find_first_not_of(" \t\r\n\v\f") == std::string::npos) {
    return Error{"the text is empty: give a sentence to translate"};
  }
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  InferenceOutcome out;
  std::vector<int64_t> hypothesis;
  const std::vector<int64_t> source = encodeSource(text);
  if (translator_.beam_width > 1) {
    const BeamResult beam = std::move(beamDecode({source}, true).front());
    if (!beam.finished.empty()) hypothesis = beam.finished.front().tokens;
    // Every finished hypothesis fed back at once: the attention of each, the best one's shown.
    std::vector<std::vector<int64_t>> sources, fed;
    for (const BeamHypothesis& h : beam.finished) {
      sources.push_back(source);
      fed.push_back({Tok::kSosId});
      fed.back().insert(fed.back().end(), h.tokens.begin(), h.tokens.end());
    }
    if (fed.empty()) {  // nothing finished: the attention of [SOS] alone
      sources.push_back(source);
      fed.push_back({Tok::kSosId});
    }
    std::vector<AttentionSnapshot> attention = attentionOfFed(sources, fed, {}, false);
    out.attention = attention.front();
    out.attention.payloads.put(makePayload(beamPayloadOf(beam, std::move(attention))));
    // Every finished hypothesis with its length-normalised log-probability, best first.
    for (const BeamHypothesis& h : beam.finished) {
      out.ranking.emplace_back(target_tokenizer_.detokenize(h.tokens), h.score);
    }
  } else {
    out.attention = attentionOf(source, &hypothesis);
  }
  out.label = target_tokenizer_.detokenize(hypothesis);
  model_->train(was_training);
  return out;
}

}  // namespace ascope
