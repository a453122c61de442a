#include "engine/tasks/digit_order/digit_order_task.h"

#include <algorithm>
#include <string>

#include "engine/device/copy_to_device.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/classifier_evaluation.h"
#include "engine/tasks/digit_order/digit_order_descriptor.h"
#include "engine/tasks/encoder_attention_sites.h"

namespace ascope {
namespace {

/// Every sequence's ids stacked (N, length + 1), and the labels (N).
void stackSequences(const std::vector<DigitSequence>& set, int64_t length, torch::Tensor* ids,
                    torch::Tensor* labels) {
  const auto n = static_cast<int64_t>(set.size());
  *ids = torch::full({n, length + 1}, DigitOrderModelImpl::kClsId, torch::kLong);
  *labels = torch::empty({n}, torch::kLong);
  for (int64_t i = 0; i < n; ++i) {
    const DigitSequence& s = set[static_cast<std::size_t>(i)];
    int64_t* row = ids->data_ptr<int64_t>() + i * (length + 1);
    for (int64_t j = 0; j < length && j < static_cast<int64_t>(s.digits.size()); ++j) {
      row[j + 1] = s.digits[static_cast<std::size_t>(j)];
    }
    labels->data_ptr<int64_t>()[i] = s.label;
  }
}

std::vector<std::string> tokensOf(const std::vector<int>& digits) {
  std::vector<std::string> tokens{"CLS"};
  for (int d : digits) tokens.push_back(std::to_string(d));
  return tokens;
}

}  // namespace

torch::Tensor digitOrderIds(const std::vector<int>& digits) {
  std::vector<int64_t> ids{DigitOrderModelImpl::kClsId};
  ids.insert(ids.end(), digits.begin(), digits.end());
  return torch::tensor(ids, torch::kLong);
}

DigitOrderTask::DigitOrderTask(const TrainingConfig& config, std::vector<DigitSequence> train,
                               std::vector<DigitSequence> validation, const torch::Device& device,
                               std::vector<DigitSequence> test, SplitOrigins origins)
    : config_(config),
      settings_(config.task_settings.get<DigitOrderConfig>()),
      device_(device),
      train_(std::move(train)),
      validation_(std::move(validation)),
      test_(std::move(test)),
      origins_(std::move(origins)) {
  stackSequences(train_, settings_.length, &train_ids_, &train_labels_);
  stackSequences(validation_, settings_.length, &validation_ids_, &validation_labels_);
  stackSequences(test_, settings_.length, &test_ids_, &test_labels_);
  model_ = DigitOrderModel(settings_);
  model_->to(device_);
}

std::string DigitOrderTask::describe() const {
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  return "digit-order encoder " + std::to_string(settings_.layers) + " layer(s) × " +
         std::to_string(settings_.heads) + " heads, d_model " + std::to_string(settings_.d_model) +
         ", " + std::to_string(parameters) + " parameters; " + std::to_string(trainSize()) +
         " training / " + std::to_string(validationSize()) + " validation sequences of " +
         std::to_string(settings_.length) + " digits";
}

BatchOutcome DigitOrderTask::trainBatch(const std::vector<int64_t>& indices) {
  const torch::Tensor index = torch::tensor(indices, torch::kLong);
  const torch::Tensor ids = copyToDevice(train_ids_.index_select(0, index), device_);  // (B, T)
  const torch::Tensor labels = copyToDevice(train_labels_.index_select(0, index), device_);  // (B)
  return classifierBatchOutcome(model_(ids), labels, config_.optimization.label_smoothing);
}

double DigitOrderTask::trainingFlops(const std::vector<int64_t>& indices) const {
  return digitOrderStepFlops(settings_, static_cast<int64_t>(indices.size()));
}

EvaluationOutcome DigitOrderTask::evaluate(DataSplit split, int max_samples,
                                           FigureSamples /*figures*/) {
  if (split == DataSplit::kTest) return {};
  const bool train = split == DataSplit::kTrain;
  const torch::Tensor& ids = train ? train_ids_ : validation_ids_;
  return evaluateClassifier(*model_, train ? train_labels_ : validation_labels_, max_samples, 512,
                            [this, &ids](int64_t start, int64_t count) {
                              return model_(copyToDevice(ids.narrow(0, start, count), device_));
                            });
}

Expected<std::vector<ScoredSample>> DigitOrderTask::scoreSplit(DataSplit split,
                                                               const ScoringProgress& progress) {
  const std::vector<DigitSequence>& set = split == DataSplit::kTrain        ? train_
                                          : split == DataSplit::kValidation ? validation_
                                                                            : test_;
  const torch::Tensor& ids = split == DataSplit::kTrain        ? train_ids_
                             : split == DataSplit::kValidation ? validation_ids_
                                                               : test_ids_;
  const torch::Tensor& labels = split == DataSplit::kTrain        ? train_labels_
                                : split == DataSplit::kValidation ? validation_labels_
                                                                  : test_labels_;
  return scoreClassifierRows(
      *model_, labels, 512,
      [this, &ids](int64_t start, int64_t count) {
        return model_(copyToDevice(ids.narrow(0, start, count), device_));
      },
      digitOrderClassNames(),
      [&set](int64_t row, SamplePrediction& p) {
        p.task = kDigitOrderTaskId;
        p.input = digitsText(set[static_cast<std::size_t>(row)].digits);
      },
      progress);
}

InferenceOutcome DigitOrderTask::classify(const std::vector<int>& digits, bool with_attention) {
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  const torch::Tensor ids = copyToDevice(digitOrderIds(digits).unsqueeze(0), device_);  // (1, T)
  InferenceOutcome out;
  std::vector<torch::Tensor> attention;
  const torch::Tensor logits = model_(ids, with_attention ? &attention : nullptr);  // (1, 2)
  if (with_attention) {
    const std::vector<std::string> tokens = tokensOf(digits);
    out.attention.task = kDigitOrderTaskId;
    out.attention.sample_index = -1;
    out.attention.groups.push_back(toAttentionGroup("encoder", attention, tokens, tokens));
  }
  model_->train(was_training);
  rankClasses(torch::softmax(logits, -1)[0].to(torch::kCPU), digitOrderClassNames(), &out);
  return out;
}

AttentionSnapshot DigitOrderTask::probeAttention(int index) {
  index = static_cast<int>(index % std::max<int64_t>(1, validationSize()));
  AttentionSnapshot snapshot =
      classify(validation_[static_cast<std::size_t>(index)].digits, /*with_attention=*/true)
          .attention;
  snapshot.sample_index = index;
  return snapshot;
}

SamplePrediction DigitOrderTask::predictSample(int index) {
  index = static_cast<int>(index % std::max<int64_t>(1, validationSize()));
  const DigitSequence& s = validation_[static_cast<std::size_t>(index)];
  SamplePrediction p;
  p.task = kDigitOrderTaskId;
  p.sample_index = index;
  p.input = digitsText(s.digits);
  p.expected = digitOrderClassNames()[static_cast<std::size_t>(s.label)];
  recordPrediction(classify(s.digits, /*with_attention=*/false), &p);
  return p;
}

PositionalEncodingSnapshot DigitOrderTask::positionalEncoding() {
  return positionTableSnapshot(model_->positions->matrix(), "learned");
}

std::vector<AttentionSite> DigitOrderTask::attentionSites() {
  return encoderAttentionSites(model_->layers, "encoder",
                               {recordSumsOf(model_->positions)});  // as classify names the group
}

Status DigitOrderTask::saveArtifacts(const std::string& /*run_dir*/) const {
  return {};  // digits need no tokenizer, and the class names are fixed
}

Expected<InferenceOutcome> DigitOrderTask::inferText(const std::string& text) {
  Expected<std::vector<int>> digits = parseDigits(text, static_cast<int>(settings_.length));
  if (!digits.ok()) return Error{digits.error()};
  return classify(*digits, /*with_attention=*/true);
}

}  // namespace ascope
