#include "engine/tasks/image_classification/pretrained_image_classification_task.h"

#include <torch/utils.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "engine/core/atomic_file.h"
#include "engine/device/copy_to_device.h"
#include "engine/imaging/pillow_bilinear_resize.h"
#include "engine/models/vision_transformer_config.h"
#include "engine/pretrained/available_memory.h"
#include "engine/pretrained/pretrained_model.h"
#include "engine/pretrained/vit_processor_for_model.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/classifier_evaluation.h"
#include "engine/tasks/encoder_attention_sites.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/image_classification/image_classification_task.h"
#include "engine/tasks/image_classification/image_data_settings.h"
#include "engine/tasks/image_classification/image_tensors.h"
#include "engine/tasks/image_classification/random_crop_flip.h"
#include "engine/tasks/pretrained_artifacts.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kImageArtifactFiles{"config.json", "preprocessor_config.json"};

/// Without resizing, the processor hands the model the images as they are.
Status checkImageSide(const VitImageProcessor& processor, const VitConfig& model, int side,
                      const std::string& folder) {
  if (processor.do_resize || side == model.image_size) return {};
  return Error{folder + "/preprocessor_config.json: do_resize is false, so the images (" +
               std::to_string(side) + "×" + std::to_string(side) +
               ") would reach the model at another size than its image_size " +
               std::to_string(model.image_size)};
}

}  // namespace

Expected<std::unique_ptr<Task>> PretrainedImageClassificationTask::forTraining(
    const TrainingConfig& config, ImageDataset data, const torch::Device& device) {
  Expected<PretrainedModel> loaded =
      loadPretrainedModel(config.pretrained, data.class_names, ModelUse::kTraining, device);
  if (!loaded.ok()) return Error{loaded.error()};
  if (!loaded->vit) {
    return Error{config.pretrained + ": a " + loaded->model_type +
                 " model; the image task fine-tunes a ViT model"};
  }
  Expected<VitImageProcessor> processor =
      vitProcessorForModel(config.pretrained, loaded->vit->config());
  if (!processor.ok()) return Error{processor.error()};
  const Status side =
      checkImageSide(*processor, loaded->vit->config(), data.height, config.pretrained);
  if (!side.ok()) return Error{side.error()};
  try {
    return std::unique_ptr<Task>(std::make_unique<PretrainedImageClassificationTask>(
        config, std::move(data), *processor, loaded->vit, config.pretrained, device));
  } catch (const std::exception& e) {
    return Error{config.pretrained + ": " + e.what()};
  }
}

Expected<std::unique_ptr<Task>> PretrainedImageClassificationTask::forInference(
    const TrainingConfig& config, const std::string& run_dir, const torch::Device& device,
    ImageDataset data) {
  const std::string folder = (fs::path(run_dir) / kPretrainedArtifactsFolder).string();
  Expected<std::vector<std::string>> names = loadClassNames(run_dir);
  if (!names.ok()) return Error{names.error()};
  Expected<VitConfig> vit = readVitConfig((fs::path(folder) / "config.json").string());
  if (!vit.ok()) return Error{vit.error()};
  vit->labels = *names;
  Expected<VitImageProcessor> processor = vitProcessorForModel(folder, *vit);
  if (!processor.ok()) return Error{processor.error()};
  const ModelMemoryEstimate estimate = estimateModelMemory(*vit);
  const AvailableMemory memory = availableMemory(device);
  const Status fits = checkModelFitsMemory(estimate, ModelUse::kInference, memory.bytes,
                                           memory.source, folder + "/config.json");
  if (!fits.ok()) return Error{fits.error()};
  if (!data.class_names.empty() && data.class_names != *names) {
    return Error{"the data's classes differ from the run's (" + run_dir + "/classes.json)"};
  }
  data.class_names = std::move(*names);
  data.height = data.width =
      static_cast<int>(config.task_settings.get<VisionTransformerConfig>().image_size);
  try {
    return std::unique_ptr<Task>(std::make_unique<PretrainedImageClassificationTask>(
        config, std::move(data), *processor, VitModel(*vit), std::string(), device));
  } catch (const std::exception& e) {
    return Error{folder + ": " + e.what()};
  }
}

PretrainedImageClassificationTask::PretrainedImageClassificationTask(
    const TrainingConfig& config, ImageDataset data, VitImageProcessor processor, VitModel model,
    std::string model_folder, const torch::Device& device)
    : ImageDatasetTask(data),
      config_(config),
      augment_(config.task_settings.get<ImageDataSettings>().augment),
      device_(device),
      processor_(std::move(processor)),
      model_folder_(std::move(model_folder)),
      model_(std::move(model)) {
  model_->to(device_);
  model_->train();
}

std::string PretrainedImageClassificationTask::describe() const {
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  const VitConfig& c = model_->config();
  return "pretrained ViT " + config_.pretrained + ": " + std::to_string(c.num_hidden_layers) +
         " layer(s) × " + std::to_string(c.num_attention_heads) + " heads, hidden " +
         std::to_string(c.hidden_size) + ", patch " + std::to_string(c.patch_size) + ", " +
         std::to_string(c.image_size) + "×" + std::to_string(c.image_size) +
         " input, fresh head for " + std::to_string(class_names_.size()) + " classes, " +
         std::to_string(parameters) + " parameters; " + std::to_string(trainSize()) +
         " training / " + std::to_string(validationSize()) + " validation / " +
         std::to_string(testSize()) + " test images";
}

int64_t PretrainedImageClassificationTask::gridSide() const {
  const VitConfig& c = model_->config();
  return c.image_size / c.patch_size;
}

torch::Tensor PretrainedImageClassificationTask::pixelValues(const torch::Tensor& images) const {
  const torch::Tensor bytes = images.contiguous();
  const int64_t batch = bytes.size(0), height = bytes.size(2), width = bytes.size(3);
  const int64_t side = model_->config().image_size;
  torch::Tensor out = torch::empty({batch, 3, side, side}, torch::kFloat);
  const auto* in = bytes.data_ptr<uint8_t>();
  const int64_t in_pixels = 3 * height * width;
  for (int64_t i = 0; i < batch; ++i) {
    const std::vector<uint8_t> image(in + i * in_pixels, in + (i + 1) * in_pixels);
    const std::vector<float> values =
        processor_.process(image, static_cast<int>(height), static_cast<int>(width));
    std::copy(values.begin(), values.end(), out.data_ptr<float>() + i * 3 * side * side);
  }
  return copyToDevice(out, device_);
}

BatchOutcome PretrainedImageClassificationTask::trainBatch(const std::vector<int64_t>& indices) {
  const torch::Tensor index = torch::tensor(indices, torch::kLong);
  torch::Tensor pixels = pixelValues(images_[0].index_select(0, index));
  if (augment_) pixels = randomCropFlip(pixels);
  const torch::Tensor labels = copyToDevice(labels_[0].index_select(0, index), device_);
  const torch::Tensor logits = model_->forward(pixels);  // (B, classes)
  return classifierBatchOutcome(logits, labels, config_.optimization.label_smoothing);
}

torch::Tensor PretrainedImageClassificationTask::logitsOfImages(const torch::Tensor& images) {
  return model_->forward(pixelValues(images));
}

AttentionSnapshot PretrainedImageClassificationTask::probeAttention(int index) {
  index = static_cast<int>(index % std::max<int64_t>(1, validationSize()));
  return probedAttention(classify(imageBufferAt(images_[1], index), /*with_attention=*/true),
                         kImageClassificationTaskId, index);
}

PositionalEncodingSnapshot PretrainedImageClassificationTask::positionalEncoding() {
  PositionalEncodingSnapshot s = positionTableSnapshot(model_->positionMatrix(), "learned");
  s.grid_rows = s.grid_cols = static_cast<int>(gridSide());
  s.has_cls = true;
  return s;
}

std::vector<AttentionSite> PretrainedImageClassificationTask::attentionSites() {
  return encoderAttentionSites(model_->layers, "encoder",
                               {recordSumsOf(model_->pos_embed)});  // as classify names the group
}

Status PretrainedImageClassificationTask::saveArtifacts(const std::string& run_dir) const {
  const Status copied = copyPretrainedArtifacts(model_folder_, run_dir, kImageArtifactFiles);
  if (!copied.ok()) return copied;
  return writeFileAtomically(run_dir + "/classes.json", nlohmann::json(class_names_).dump(2));
}

Expected<InferenceOutcome> PretrainedImageClassificationTask::inferImage(const ImageBuffer& image) {
  return classify(image, /*with_attention=*/true);
}

std::optional<PatchGrid> PretrainedImageClassificationTask::patchGrid() const {
  PatchGrid grid;
  grid.side = static_cast<int>(model_->config().image_size);
  grid.patch_size = static_cast<int>(model_->config().patch_size);
  // The processor reads a byte b as b · rescale_factor − mean (per channel), as configured.
  const double scale = processor_.do_rescale ? processor_.rescale_factor : 1.0;
  for (std::size_t c = 0; c < grid.neutral_rgb.size(); ++c) {
    grid.neutral_rgb[c] = neutralByte(processor_.do_normalize ? processor_.mean[c] : 0.0, scale);
  }
  return grid;
}

Expected<InferenceOutcome> PretrainedImageClassificationTask::classify(const ImageBuffer& image,
                                                                       bool with_attention) {
  if (image.width <= 0 || image.height <= 0 ||
      image.pixels.size() != 3 * static_cast<std::size_t>(image.width) * image.height) {
    return Error{"the image must be channel-planar RGB, " + std::to_string(image.width) + "×" +
                 std::to_string(image.height) + " with " + std::to_string(image.pixels.size()) +
                 " bytes is not"};
  }
  const int side = static_cast<int>(model_->config().image_size);
  if (!processor_.do_resize && (image.width != side || image.height != side)) {
    return Error{"the image must be " + std::to_string(side) + "×" + std::to_string(side) +
                 " (the model's preprocessor_config.json does not resize), got " +
                 std::to_string(image.width) + "×" + std::to_string(image.height)};
  }
  // What the processor would resize to, as bytes: the picture the attention is drawn over.
  ImageBuffer shown = image;
  if (processor_.do_resize && (image.width != side || image.height != side)) {
    shown.pixels = resizeBilinearLikePillow(image.pixels, 3, image.height, image.width, side, side);
    shown.width = shown.height = side;
  }
  torch::NoGradGuard no_grad;
  const bool was_training = model_->is_training();
  model_->eval();
  const torch::Tensor bytes =
      torch::from_blob(shown.pixels.data(), {1, 3, shown.height, shown.width}, torch::kUInt8);
  std::vector<torch::Tensor> attention;
  const torch::Tensor logits =
      model_->forward(pixelValues(bytes), with_attention ? &attention : nullptr);
  const torch::Tensor probs = torch::softmax(logits, -1)[0].to(torch::kCPU);
  model_->train(was_training);
  InferenceOutcome out;
  rankClasses(probs, class_names_, &out);
  if (with_attention) {
    std::vector<std::string> labels{"CLS"};
    for (int64_t p = 0; p < gridSide() * gridSide(); ++p) labels.push_back(std::to_string(p));
    out.attention.task = kImageClassificationTaskId;
    out.attention.sample_index = -1;
    out.attention.groups.push_back(toAttentionGroup("encoder", attention, labels, labels));
    out.attention.payloads.put(imagePayload(std::move(shown)));
  }
  return out;
}

std::shared_ptr<const ImagePayload> PretrainedImageClassificationTask::imagePayload(
    ImageBuffer image) const {
  ImagePayload payload;
  payload.image = std::move(image);
  payload.patch_size = static_cast<int>(model_->config().patch_size);
  payload.grid_rows = payload.grid_cols = static_cast<int>(gridSide());
  return std::make_shared<const ImagePayload>(std::move(payload));
}

}  // namespace ascope
