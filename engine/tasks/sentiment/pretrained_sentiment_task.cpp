#include "engine/tasks/sentiment/pretrained_sentiment_task.h"

#include <fmt/format.h>

#include <torch/utils.h>

#include <algorithm>
#include <filesystem>
#include <unordered_set>

#include "engine/device/copy_to_device.h"
#include "engine/models/text_classifier_config.h"
#include "engine/nn/encoder_layer.h"
#include "engine/pretrained/pretrained_model.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/classifier_evaluation.h"
#include "engine/tasks/encoder_attention_sites.h"
#include "engine/tasks/pretrained_artifacts.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/used_columns.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kLabels{"negative", "positive"};

// What a save_pretrained folder holds besides the weights; the tokenizer is read from whichever
// of these exist, as BertTokenizer::fromFolder reads them.
const std::vector<std::string> kSentimentArtifactFiles{"config.json", "vocab.txt", "tokenizer.json",
                                                       "tokenizer_config.json",
                                                       "special_tokens_map.json"};

// A model with fewer rows in its embedding table than the tokenizer has tokens would fail on the
// first review holding one of them; better to refuse the folder at once.
Status checkTokenizerFits(const BertTokenizer& tokenizer, const BertConfig& config,
                          const std::string& folder) {
  if (static_cast<int64_t>(tokenizer.vocabSize()) > config.vocab_size) {
    return Error{folder + ": the tokenizer has " + std::to_string(tokenizer.vocabSize()) +
                 " tokens, the model's vocab_size is " + std::to_string(config.vocab_size)};
  }
  return {};
}

}  // namespace

Expected<std::unique_ptr<Task>> PretrainedSentimentTask::forTraining(
    const TrainingConfig& config, TextDataset data, const torch::Device& device,
    std::vector<std::string>* warnings) {
  Expected<PretrainedModel> loaded =
      loadPretrainedModel(config.pretrained, kLabels, ModelUse::kTraining, device);
  if (!loaded.ok()) return Error{loaded.error()};
  if (!loaded->bert) {
    return Error{config.pretrained + ": a " + loaded->model_type +
                 " model; sentiment fine-tunes a BERT model"};
  }
  Expected<BertTokenizer> tokenizer = BertTokenizer::fromFolder(config.pretrained);
  if (!tokenizer.ok()) return Error{tokenizer.error()};
  const Status fits = checkTokenizerFits(*tokenizer, loaded->bert->config(), config.pretrained);
  if (!fits.ok()) return Error{fits.error()};
  const std::size_t vocabulary = tokenizer->vocabSize();
  std::unique_ptr<PretrainedSentimentTask> task;
  try {
    task = std::make_unique<PretrainedSentimentTask>(config, std::move(data), std::move(*tokenizer),
                                                     loaded->bert, config.pretrained, device);
  } catch (const std::exception& e) {
    return Error{config.pretrained + ": " + e.what()};
  }
  const double unknown = task->unknownWordShare();
  if (warnings != nullptr && unknown > 0.5) {
    warnings->push_back(fmt::format(
        "{}: its vocabulary ({} word pieces) knows only {:.0f} % of the different words in the "
        "training reviews: the other {:.0f} % become [UNK], and the fine-tune can learn little "
        "from them. Choose a model whose tokenizer knows the reviews' language "
        "(bert-base-uncased for English)",
        config.pretrained, vocabulary, 100 * (1 - unknown), 100 * unknown));
  }
  return std::unique_ptr<Task>(std::move(task));
}

double PretrainedSentimentTask::unknownWordShare() const {
  // Distinct words: a review's "the" and "a" are known to any vocabulary, the words that carry
  // its sentiment are what a fine-tune needs. The first reviews are enough to tell.
  constexpr std::size_t kReviews = 2000;
  const BertBasicTokenizer basic(tokenizer_.settings().normalization,
                                 tokenizer_.settings().never_split);
  const std::vector<TextSample>& reviews = splitSamples(data_, DataSplit::kTrain);
  std::unordered_set<std::string> words;
  for (std::size_t i = 0; i < std::min(reviews.size(), kReviews); ++i) {
    for (std::string& word : basic.tokenize(reviews[i].text)) words.insert(std::move(word));
  }
  std::size_t unknown = 0;
  for (const std::string& word : words) {
    const std::vector<std::int64_t> ids = tokenizer_.encodeIds(word);
    if (ids.size() == 1 && ids[0] == tokenizer_.unkId()) ++unknown;
  }
  return words.empty() ? 0 : static_cast<double>(unknown) / static_cast<double>(words.size());
}

Expected<std::unique_ptr<Task>> PretrainedSentimentTask::forInference(const TrainingConfig& config,
                                                                      const std::string& run_dir,
                                                                      const torch::Device& device,
                                                                      TextDataset data) {
  const std::string folder = (fs::path(run_dir) / kPretrainedArtifactsFolder).string();
  Expected<BertConfig> bert = readBertConfig((fs::path(folder) / "config.json").string());
  if (!bert.ok()) return Error{bert.error()};
  bert->labels = kLabels;
  Expected<BertTokenizer> tokenizer = BertTokenizer::fromFolder(folder);
  if (!tokenizer.ok()) return Error{tokenizer.error()};
  const Status fits = checkTokenizerFits(*tokenizer, *bert, folder);
  if (!fits.ok()) return Error{fits.error()};
  try {
    return std::unique_ptr<Task>(std::make_unique<PretrainedSentimentTask>(
        config, std::move(data), std::move(*tokenizer), BertModel(*bert), std::string(), device));
  } catch (const std::exception& e) {
    return Error{folder + ": " + e.what()};
  }
}

PretrainedSentimentTask::PretrainedSentimentTask(const TrainingConfig& config, TextDataset data,
                                                 BertTokenizer tokenizer, BertModel model,
                                                 std::string model_folder,
                                                 const torch::Device& device)
    : config_(config),
      device_(device),
      data_(std::move(data)),
      tokenizer_(std::move(tokenizer)),
      model_folder_(std::move(model_folder)),
      model_(std::move(model)) {
  // The model has no positions past max_position_embeddings, whatever the preset asks for.
  max_length_ = std::min<int64_t>(config_.task_settings.get<TextClassifierConfig>().max_len,
                                  model_->config().max_position_embeddings);
  for (DataSplit split : {DataSplit::kTrain, DataSplit::kValidation, DataSplit::kTest}) {
    const std::size_t k = splitSlot(split);
    encodeAll(splitSamples(data_, split), &ids_[k], &mask_[k], &labels_[k]);
  }
  model_->to(device_);
  model_->train();
}

BertEncoding PretrainedSentimentTask::encodeOne(const std::string& text) const {
  BertEncodeOptions options;
  options.max_length = static_cast<std::size_t>(max_length_);
  return tokenizer_.encode(text, options);
}

void PretrainedSentimentTask::encodeAll(const std::vector<TextSample>& samples, torch::Tensor* ids,
                                        torch::Tensor* mask, torch::Tensor* labels) const {
  const auto n = static_cast<int64_t>(samples.size());
  *ids = torch::empty({n, max_length_}, torch::kLong);
  *mask = torch::empty({n, max_length_}, torch::kLong);
  *labels = torch::empty({n}, torch::kLong);
  BertEncodeOptions options;
  options.max_length = static_cast<std::size_t>(max_length_);
  options.pad_to_max_length = true;
  for (int64_t i = 0; i < n; ++i) {
    const BertEncoding e = tokenizer_.encode(samples[i].text, options);
    std::copy(e.ids.begin(), e.ids.end(), ids->data_ptr<int64_t>() + i * max_length_);
    std::copy(e.attention_mask.begin(), e.attention_mask.end(),
              mask->data_ptr<int64_t>() + i * max_length_);
    labels->data_ptr<int64_t>()[i] = samples[i].label;
  }
}

std::string PretrainedSentimentTask::describe() const {
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  const BertConfig& c = model_->config();
  return "pretrained BERT " + config_.pretrained + ": " + std::to_string(c.num_hidden_layers) +
         " layer(s) × " + std::to_string(c.num_attention_heads) + " heads, hidden " +
         std::to_string(c.hidden_size) + ", vocabulary " + std::to_string(c.vocab_size) +
         ", fresh negative/positive head, " + std::to_string(parameters) + " parameters; " +
         std::to_string(max_length_) + " tokens per review; " + std::to_string(trainSize()) +
         " training / " + std::to_string(validationSize()) + " validation / " +
         std::to_string(testSize()) + " test reviews";
}

torch::Tensor PretrainedSentimentTask::logitsOf(const torch::Tensor& ids, const torch::Tensor& mask,
                                                std::vector<torch::Tensor>* attention) {
  // Padding is masked out of attention anyway: columns past the longest input only cost time.
  const int64_t length = usedColumns(mask, 0);
  return model_->forward(copyToDevice(ids.narrow(1, 0, length), device_), {},
                         copyToDevice(mask.narrow(1, 0, length), device_), attention);
}

BatchOutcome PretrainedSentimentTask::trainBatch(const std::vector<int64_t>& indices) {
  const torch::Tensor index = torch::tensor(indices, torch::kLong);
  const torch::Tensor labels = copyToDevice(labels_[0].index_select(0, index), device_);
  const torch::Tensor logits =
      logitsOf(ids_[0].index_select(0, index), mask_[0].index_select(0, index));
  return classifierBatchOutcome(logits, labels, config_.optimization.label_smoothing);
}

EvaluationOutcome PretrainedSentimentTask::evaluate(DataSplit split, int max_samples,
                                                    FigureSamples /*figures*/) {
  const std::size_t k = splitSlot(split);
  return evaluateClassifier(
      *model_, labels_[k], max_samples, 64, [this, k](int64_t start, int64_t count) {
        return logitsOf(ids_[k].narrow(0, start, count), mask_[k].narrow(0, start, count));
      });
}

Expected<std::vector<ScoredSample>> PretrainedSentimentTask::scoreSplit(
    DataSplit split, const ScoringProgress& progress) {
  const std::size_t k = splitSlot(split);
  const std::vector<TextSample>& samples = splitSamples(data_, split);
  return scoreClassifierRows(
      *model_, labels_[k], 64,
      [this, k](int64_t start, int64_t count) {
        return logitsOf(ids_[k].narrow(0, start, count), mask_[k].narrow(0, start, count));
      },
      classList(),
      [&](int64_t row, SamplePrediction& p) {
        p.task = kSentimentTaskId;
        p.input = samples[static_cast<std::size_t>(row)].text;
      },
      progress);
}

AttentionSnapshot PretrainedSentimentTask::probeAttention(int index) {
  index = index % std::max<int64_t>(1, validationSize());
  return probedAttention(classify(data_.validation[index].text, /*with_attention=*/true),
                         kSentimentTaskId, index);
}

SamplePrediction PretrainedSentimentTask::predictSample(int index) {
  index = index % std::max<int64_t>(1, validationSize());
  SamplePrediction p;
  p.task = kSentimentTaskId;
  p.sample_index = index;
  p.input = data_.validation[index].text;
  p.expected = classList()[data_.validation[index].label];
  recordPrediction(classify(p.input, /*with_attention=*/false), &p);
  return p;
}

PositionalEncodingSnapshot PretrainedSentimentTask::positionalEncoding() {
  return positionTableSnapshot(model_->positionMatrix(), "learned");
}

std::vector<AttentionSite> PretrainedSentimentTask::attentionSites() {
  return encoderAttentionSites(model_->layers, "encoder",
                               {recordSumsOf(model_->position_embeddings),
                                model_->embedding_norm});  // as classify names the group
}

Status PretrainedSentimentTask::saveArtifacts(const std::string& run_dir) const {
  return copyPretrainedArtifacts(model_folder_, run_dir, kSentimentArtifactFiles);
}

Expected<InferenceOutcome> PretrainedSentimentTask::inferText(const std::string& text) {
  return classify(text, /*with_attention=*/true);
}

const std::vector<std::string>& PretrainedSentimentTask::classList() const {
  return data_.class_names.size() == 2 ? data_.class_names : kLabels;
}

Expected<InferenceOutcome> PretrainedSentimentTask::classify(const std::string& text,
                                                             bool with_attention) {
  // [CLS] [SEP] alone would still get a confident-looking answer.
  if (text.find_first_not_of(" \t\r\n\v\f") == std::string::npos) {
    return Error{"the text is empty: give a review to classify"};
  }
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  const BertEncoding e = encodeOne(text);
  const auto n = static_cast<int64_t>(e.ids.size());
  const torch::Tensor ids = torch::tensor(e.ids, torch::kLong).reshape({1, n});
  const torch::Tensor mask = torch::tensor(e.attention_mask, torch::kLong).reshape({1, n});
  std::vector<torch::Tensor> attention;
  const torch::Tensor logits = logitsOf(ids, mask, with_attention ? &attention : nullptr);
  const torch::Tensor probs = torch::softmax(logits, -1)[0].to(torch::kCPU);  // (2)
  model_->train(was_training);
  InferenceOutcome out;
  rankClasses(probs, classList(), &out);
  if (with_attention) {
    out.attention.task = kSentimentTaskId;
    out.attention.sample_index = -1;
    out.attention.groups.push_back(toAttentionGroup("encoder", attention, e.tokens, e.tokens));
  }
  return out;
}

}  // namespace ascope
