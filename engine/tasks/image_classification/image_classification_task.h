#pragma once
#include <memory>
#include <optional>

#include "engine/models/vision_transformer.h"
#include "engine/tasks/image_classification/image_dataset_task.h"
#include "engine/vocabulary/datasets.h"

namespace ascope {

/// ViT on 32×32 RGB images: CIFAR-10, an image folder, or the built-in shapes.
class ImageClassificationTask : public ImageDatasetTask {
 public:
  /// Takes the dataset (may have empty splits for inference) and builds the model.
  ImageClassificationTask(const TrainingConfig& config, ImageDataset data,
                          const torch::Device& device);

  torch::nn::Module& model() override { return *model_; }
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  double trainingFlops(const std::vector<int64_t>& indices) const override;
  AttentionSnapshot probeAttention(int index) override;
  /// All images in one forward pass, their attention and their predicted class from it.
  std::vector<AttentionSnapshot> probeSamples(const std::vector<int>& indices) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  Expected<InferenceOutcome> inferImage(const ImageBuffer& image) override;
  std::optional<PatchGrid> patchGrid() const override;

 private:
  /// uint8 (N, 3, H, W) → normalised float on the device.
  torch::Tensor normalise(const torch::Tensor& images) const;
  /// One forward pass over `image` (channel-planar RGB at the model's size) with its attention
  /// (CLS then one label per patch) and the image and patch grid to overlay it on; `logits` gets
  /// the class scores (1, classes). Model in eval mode, no grad.
  AttentionSnapshot attentionOf(const ImageBuffer& image, torch::Tensor* logits);
  /// The snapshot of `image` with row `row` of `attention` (B, H, T, T per layer).
  AttentionSnapshot snapshotOf(std::shared_ptr<const ImagePayload> image,
                               const std::vector<torch::Tensor>& attention, int64_t row) const;
  std::shared_ptr<const ImagePayload> imagePayload(ImageBuffer image) const override;
  Expected<InferenceOutcome> classify(const ImageBuffer& image, bool with_attention) override;
  torch::Tensor logitsOfImages(const torch::Tensor& images) override;
  int64_t evaluationBatch() const override;

  TrainingConfig config_;
  VisionTransformerConfig vit_;  ///< config_'s model settings, with the sizes the data fixes
  bool augment_ = false;         ///< config_'s ImageDataSettings::augment
  torch::Device device_;
  VisionTransformer model_{nullptr};
};

/// Class names from the run folder's classes.json.
Expected<std::vector<std::string>> loadClassNames(const std::string& run_dir);

}  // namespace ascope
