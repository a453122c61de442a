#include "engine/tasks/image_classification/image_classification_task.h"

#include "engine/tasks/image_classification/image_classification_descriptor.h"

#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/padding.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "engine/models/model_flops.h"
#include "engine/nn/encoder_layer.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/classifier_evaluation.h"
#include "engine/tasks/encoder_attention_sites.h"
#include "engine/text/json_file.h"

namespace ascope {
namespace {

constexpr double kPixelMean = 0.5, kPixelStd = 0.25;

void toTensors(const std::vector<ImageSample>& samples, int height, int width,
               torch::Tensor* images, torch::Tensor* labels) {
  const int64_t n = static_cast<int64_t>(samples.size());
  const int64_t pixels = 3LL * height * width;
  *images = torch::empty({n, 3, height, width}, torch::kUInt8);
  *labels = torch::empty({n}, torch::kLong);
  auto* image_data = images->data_ptr<uint8_t>();
  auto* label_data = labels->data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    std::copy(samples[i].pixels.begin(), samples[i].pixels.end(), image_data + i * pixels);
    label_data[i] = samples[i].label;
  }
}

}  // namespace

ImageClassificationTask::ImageClassificationTask(const TrainingConfig& config, ImageDataset data,
                                                 const torch::Device& device)
    : config_(config), device_(device), class_names_(std::move(data.class_names)) {
  config_.vit.num_classes = std::max<int64_t>(2, static_cast<int64_t>(class_names_.size()));
  config_.vit.image_size = data.height;
  toTensors(data.train, data.height, data.width, &train_images_, &train_labels_);
  toTensors(data.test, data.height, data.width, &test_images_, &test_labels_);
  model_ = VisionTransformer(config_.vit);
  model_->to(device_);
}

std::string ImageClassificationTask::describe() const {
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  const auto& v = config_.vit;
  return "ViT " + std::to_string(v.layers) + " layers × " + std::to_string(v.heads) +
         " heads, hidden " + std::to_string(v.hidden) + ", patch " + std::to_string(v.patch_size) +
         ", " + std::to_string(parameters) + " parameters; " + std::to_string(trainSize()) +
         " training / " + std::to_string(validationSize()) + " test images, " +
         std::to_string(class_names_.size()) + " classes";
}

torch::Tensor ImageClassificationTask::normalise(const torch::Tensor& images) const {
  return (images.to(device_).to(torch::kFloat) / 255.0 - kPixelMean) / kPixelStd;  // (B, 3, H, W)
}

torch::Tensor ImageClassificationTask::augment(const torch::Tensor& batch) const {
  namespace F = torch::nn::functional;
  const int64_t b = batch.size(0), h = batch.size(2), w = batch.size(3), pad = 4;
  const torch::Tensor padded = F::pad(batch, F::PadFuncOptions({pad, pad, pad, pad}));
  const torch::Tensor offsets = torch::randint(0, 2 * pad + 1, {b, 2}, torch::kLong);
  const torch::Tensor flips = torch::rand({b}) < 0.5;
  std::vector<torch::Tensor> crops;
  crops.reserve(b);
  for (int64_t i = 0; i < b; ++i) {
    torch::Tensor crop = padded[i]
                             .narrow(1, offsets[i][0].item<int64_t>(), h)
                             .narrow(2, offsets[i][1].item<int64_t>(), w);  // (3, H, W)
    if (flips[i].item<bool>()) crop = crop.flip({2});
    crops.push_back(crop);
  }
  return torch::stack(crops);  // (B, 3, H, W)
}

BatchOutcome ImageClassificationTask::trainBatch(const std::vector<int64_t>& indices) {
  const torch::Tensor index = torch::tensor(indices, torch::kLong);
  torch::Tensor images = normalise(train_images_.index_select(0, index));
  if (config_.augment) images = augment(images);
  const torch::Tensor labels = train_labels_.index_select(0, index).to(device_);
  const torch::Tensor logits = model_(images);  // (B, classes)
  BatchOutcome out;
  out.loss = torch::nn::functional::cross_entropy(
      logits, labels,
      torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(
          config_.optimization.label_smoothing));
  out.correct = logits.argmax(-1).eq(labels).sum().item<int64_t>();  // sync point
  out.counted = out.samples = static_cast<int64_t>(indices.size());
  return out;
}

double ImageClassificationTask::trainingFlops(const std::vector<int64_t>& indices) const {
  return trainingStepFlops(config_.vit, static_cast<int64_t>(indices.size()));
}

EvaluationOutcome ImageClassificationTask::evaluate(int max_samples, int /*decode_samples*/) {
  return evaluateClassifier(*model_, test_labels_, max_samples,
                            std::max<int64_t>(config_.batch_size, 64), device_,
                            [this](int64_t start, int64_t count) {
                              return model_(normalise(test_images_.narrow(0, start, count)));
                            });
}

ImageBuffer ImageClassificationTask::imageAt(int index) const {
  const torch::Tensor image = test_images_[index].contiguous();
  ImageBuffer buffer;
  buffer.height = static_cast<int>(image.size(1));
  buffer.width = static_cast<int>(image.size(2));
  buffer.pixels.assign(image.data_ptr<uint8_t>(), image.data_ptr<uint8_t>() + image.numel());
  return buffer;
}

AttentionSnapshot ImageClassificationTask::attentionOf(ImageBuffer image, torch::Tensor* logits) {
  const int64_t side = config_.vit.image_size;
  const torch::Tensor bytes =
      torch::from_blob(image.pixels.data(), {1, 3, side, side}, torch::kUInt8);
  std::vector<torch::Tensor> attention;
  *logits = model_(normalise(bytes), &attention);
  std::vector<std::string> labels{"CLS"};
  for (int64_t p = 0; p < config_.vit.numPatches(); ++p) labels.push_back(std::to_string(p));
  AttentionSnapshot snapshot;
  snapshot.task = kImageClassificationTaskId;
  snapshot.sample_index = -1;
  snapshot.groups.push_back(toAttentionGroup("encoder", attention, labels, labels));
  snapshot.image = std::move(image);
  snapshot.patch_size = static_cast<int>(config_.vit.patch_size);
  snapshot.grid_rows = snapshot.grid_cols =
      static_cast<int>(config_.vit.image_size / config_.vit.patch_size);
  return snapshot;
}

AttentionSnapshot ImageClassificationTask::probeAttention(int index) {
  torch::NoGradGuard no_grad;
  model_->eval();
  index = index % std::max<int64_t>(1, validationSize());
  torch::Tensor logits;
  AttentionSnapshot snapshot = attentionOf(imageAt(index), &logits);
  model_->train();
  snapshot.sample_index = index;
  return snapshot;
}

SamplePrediction ImageClassificationTask::predictSample(int index) {
  index = index % std::max<int64_t>(1, validationSize());
  SamplePrediction p;
  p.task = kImageClassificationTaskId;
  p.sample_index = index;
  p.image = imageAt(index);
  const Expected<InferenceOutcome> result = classify(p.image, /*with_attention=*/false);
  p.true_label = class_names_[test_labels_[index].item<int64_t>()];
  if (result.ok()) {
    p.predicted_label = result->label;
    p.probability = result->probability;
  }
  p.correct = p.predicted_label == p.true_label;
  return p;
}

PositionalEncodingSnapshot ImageClassificationTask::positionalEncoding() {
  PositionalEncodingSnapshot s = positionTableSnapshot(model_->positionMatrix(), "learned");
  s.grid_rows = s.grid_cols = static_cast<int>(config_.vit.image_size / config_.vit.patch_size);
  s.has_cls = true;
  return s;
}

std::vector<AttentionSite> ImageClassificationTask::attentionSites() {
  return encoderAttentionSites(model_->layers, "encoder");  // as attentionOf names the group
}

Status ImageClassificationTask::saveArtifacts(const std::string& run_dir) const {
  return writeFileAtomically(run_dir + "/classes.json", nlohmann::json(class_names_).dump(2));
}

Expected<InferenceOutcome> ImageClassificationTask::inferImage(const ImageBuffer& image) {
  return classify(image, /*with_attention=*/true);
}

Expected<InferenceOutcome> ImageClassificationTask::classify(const ImageBuffer& image,
                                                             bool with_attention) {
  const int64_t side = config_.vit.image_size;
  if (image.width != side || image.height != side ||
      image.pixels.size() != static_cast<std::size_t>(3 * side * side)) {
    return Error{"image must be " + std::to_string(side) + "×" + std::to_string(side) +
                 " RGB, got " + std::to_string(image.width) + "×" + std::to_string(image.height)};
  }
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  InferenceOutcome out;
  torch::Tensor logits;
  if (with_attention) {
    out.attention = attentionOf(image, &logits);
  } else {
    const torch::Tensor bytes = torch::from_blob(const_cast<uint8_t*>(image.pixels.data()),
                                                 {1, 3, side, side}, torch::kUInt8);
    logits = model_(normalise(bytes));
  }
  const torch::Tensor probs = torch::softmax(logits, -1)[0].to(torch::kCPU);
  model_->train(was_training);
  for (int64_t c = 0; c < probs.size(0); ++c) {
    const std::string name =
        c < static_cast<int64_t>(class_names_.size()) ? class_names_[c] : std::to_string(c);
    out.ranking.emplace_back(name, probs[c].item<double>());
  }
  std::sort(out.ranking.begin(), out.ranking.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  out.label = out.ranking.front().first;
  out.probability = out.ranking.front().second;
  return out;
}

Expected<std::vector<std::string>> loadClassNames(const std::string& run_dir) {
  const std::string path = run_dir + "/classes.json";
  Expected<nlohmann::json> json = readJsonFile(path, {kMaxConfigJsonBytes, 32});
  if (!json.ok()) return Error{json.error()};
  try {
    std::vector<std::string> names = json->get<std::vector<std::string>>();
    constexpr std::size_t kMaxClasses = 100000, kMaxNameBytes = 1024;
    if (names.empty() || names.size() > kMaxClasses) {
      return Error{path + ": " + std::to_string(names.size()) + " class names (expected 1 to " +
                   std::to_string(kMaxClasses) + ")"};
    }
    for (const std::string& name : names) {
      if (name.size() > kMaxNameBytes) {
        return Error{path + ": a class name of " + std::to_string(name.size()) +
                     " bytes (at most " + std::to_string(kMaxNameBytes) + ")"};
      }
    }
    return names;
  } catch (const std::exception& e) {
    return Error{path + ": " + e.what()};
  }
}

}  // namespace ascope
