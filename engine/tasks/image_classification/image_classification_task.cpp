#include "engine/tasks/image_classification/image_classification_task.h"

#include "engine/device/copy_to_device.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "engine/core/json_file.h"
#include "engine/models/model_flops.h"
#include "engine/nn/encoder_layer.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/classifier_evaluation.h"
#include "engine/tasks/encoder_attention_sites.h"
#include "engine/tasks/image_classification/image_data_settings.h"
#include "engine/tasks/image_classification/image_tensors.h"
#include "engine/tasks/image_classification/random_crop_flip.h"

namespace ascope {
namespace {

constexpr double kPixelMean = 0.5, kPixelStd = 0.25;

}  // namespace

ImageClassificationTask::ImageClassificationTask(const TrainingConfig& config, ImageDataset data,
                                                 const torch::Device& device)
    : ImageDatasetTask(data),
      config_(config),
      vit_(config.task_settings.get<VisionTransformerConfig>()),
      augment_(config.task_settings.get<ImageDataSettings>().augment),
      device_(device) {
  vit_.num_classes = std::max<int64_t>(2, static_cast<int64_t>(class_names_.size()));
  vit_.image_size = data.height;
  model_ = VisionTransformer(vit_);
  model_->to(device_);
}

std::string ImageClassificationTask::describe() const {
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  const auto& v = vit_;
  return "ViT " + std::to_string(v.layers) + " layers × " + std::to_string(v.heads) +
         " heads, hidden " + std::to_string(v.hidden) + ", patch " + std::to_string(v.patch_size) +
         ", " + std::to_string(parameters) + " parameters; " + std::to_string(trainSize()) +
         " training / " + std::to_string(validationSize()) + " validation / " +
         std::to_string(testSize()) + " test images, " + std::to_string(class_names_.size()) +
         " classes";
}

torch::Tensor ImageClassificationTask::normalise(const torch::Tensor& images) const {
  return (copyToDevice(images, device_).to(torch::kFloat) / 255.0 - kPixelMean) /
         kPixelStd;  // (B, 3, H, W)
}

BatchOutcome ImageClassificationTask::trainBatch(const std::vector<int64_t>& indices) {
  const torch::Tensor index = torch::tensor(indices, torch::kLong);
  torch::Tensor images = normalise(images_[0].index_select(0, index));
  if (augment_) images = randomCropFlip(images);
  const torch::Tensor labels = copyToDevice(labels_[0].index_select(0, index), device_);
  const torch::Tensor logits = model_(images);  // (B, classes)
  return classifierBatchOutcome(logits, labels, config_.optimization.label_smoothing);
}

double ImageClassificationTask::trainingFlops(const std::vector<int64_t>& indices) const {
  return trainingStepFlops(vit_, static_cast<int64_t>(indices.size()));
}

torch::Tensor ImageClassificationTask::logitsOfImages(const torch::Tensor& images) {
  return model_(normalise(images));
}

int64_t ImageClassificationTask::evaluationBatch() const {
  return std::max<int64_t>(config_.batch_size, 64);
}

AttentionSnapshot ImageClassificationTask::attentionOf(const ImageBuffer& image,
                                                       torch::Tensor* logits) {
  const int64_t side = vit_.image_size;
  // from_blob only reads here: the model's input is a normalised copy.
  const torch::Tensor bytes = torch::from_blob(const_cast<std::uint8_t*>(image.pixels.data()),
                                               {1, 3, side, side}, torch::kUInt8);
  std::vector<torch::Tensor> attention;
  *logits = model_(normalise(bytes), &attention);
  return snapshotOf(imagePayload(image), attention, 0);
}

std::shared_ptr<const ImagePayload> ImageClassificationTask::imagePayload(ImageBuffer image) const {
  ImagePayload payload;
  payload.image = std::move(image);
  payload.patch_size = static_cast<int>(vit_.patch_size);
  payload.grid_rows = payload.grid_cols = static_cast<int>(vit_.image_size / vit_.patch_size);
  return std::make_shared<const ImagePayload>(std::move(payload));
}

AttentionSnapshot ImageClassificationTask::snapshotOf(std::shared_ptr<const ImagePayload> image,
                                                      const std::vector<torch::Tensor>& attention,
                                                      int64_t row) const {
  std::vector<std::string> labels{"CLS"};
  for (int64_t p = 0; p < vit_.numPatches(); ++p) labels.push_back(std::to_string(p));
  AttentionSnapshot snapshot;
  snapshot.task = kImageClassificationTaskId;
  snapshot.sample_index = -1;
  snapshot.groups.push_back(toAttentionGroup("encoder", attention, labels, labels, row));
  snapshot.payloads.put(std::move(image));
  return snapshot;
}

AttentionSnapshot ImageClassificationTask::probeAttention(int index) {
  torch::NoGradGuard no_grad;
  model_->eval();
  index = index % std::max<int64_t>(1, validationSize());
  torch::Tensor logits;
  AttentionSnapshot snapshot = attentionOf(imageBufferAt(images_[1], index), &logits);
  model_->train();
  snapshot.sample_index = index;
  return snapshot;
}

std::vector<AttentionSnapshot> ImageClassificationTask::probeSamples(
    const std::vector<int>& indices) {
  const std::vector<int64_t> rows = validationRows(indices);
  std::vector<AttentionSnapshot> snapshots;
  if (rows.empty()) return snapshots;
  torch::NoGradGuard no_grad;
  model_->eval();
  std::vector<torch::Tensor> attention;  // per layer (B, H, T, T)
  const torch::Tensor logits =
      model_(normalise(images_[1].index_select(0, torch::tensor(rows, torch::kLong))), &attention);
  const torch::Tensor probabilities = torch::softmax(logits, -1).to(torch::kCPU);  // (B, classes)
  model_->train();
  for (std::size_t b = 0; b < rows.size(); ++b) {
    const auto row = static_cast<int64_t>(b);
    SamplePrediction p = validationSample(rows[b]);
    recordClassProbabilities(probabilities[row], class_names_, &p);
    // The sample's image is the snapshot's too: one payload, shared.
    AttentionSnapshot snapshot = snapshotOf(p.payloads.share<ImagePayload>(), attention, row);
    snapshot.sample_index = p.sample_index;
    snapshot.sample = std::move(p);
    snapshots.push_back(std::move(snapshot));
  }
  return snapshots;
}

PositionalEncodingSnapshot ImageClassificationTask::positionalEncoding() {
  PositionalEncodingSnapshot s = positionTableSnapshot(model_->positionMatrix(), "learned");
  s.grid_rows = s.grid_cols = static_cast<int>(vit_.image_size / vit_.patch_size);
  s.has_cls = true;
  return s;
}

std::vector<AttentionSite> ImageClassificationTask::attentionSites() {
  return encoderAttentionSites(
      model_->layers, "encoder",
      {recordSumsOf(model_->pos_embed)});  // as attentionOf names the group
}

Status ImageClassificationTask::saveArtifacts(const std::string& run_dir) const {
  return writeFileAtomically(run_dir + "/classes.json", nlohmann::json(class_names_).dump(2));
}

Expected<InferenceOutcome> ImageClassificationTask::inferImage(const ImageBuffer& image) {
  return classify(image, /*with_attention=*/true);
}

std::optional<PatchGrid> ImageClassificationTask::patchGrid() const {
  PatchGrid grid;
  grid.side = static_cast<int>(vit_.image_size);
  grid.patch_size = static_cast<int>(vit_.patch_size);
  // normalise() reads a byte b as (b / 255 − mean) / std: the mean's byte is (nearly) 0.
  grid.neutral_rgb.fill(neutralByte(kPixelMean, 1.0 / 255.0));
  return grid;
}

Expected<InferenceOutcome> ImageClassificationTask::classify(const ImageBuffer& image,
                                                             bool with_attention) {
  const int64_t side = vit_.image_size;
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
  rankClasses(probs, class_names_, &out);
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
