#pragma once
#include <memory>

#include "engine/data/datasets.h"
#include "engine/models/vision_transformer.h"
#include "engine/tasks/task.h"

namespace ascope {

/// ViT on 32×32 RGB images: CIFAR-10, an image folder, or the built-in shapes.
class ImageClassificationTask : public Task {
 public:
  /// Takes the dataset (may have empty splits for inference) and builds the model.
  ImageClassificationTask(const TrainingConfig& config, ImageDataset data,
                          const torch::Device& device);

  torch::nn::Module& model() override { return *model_; }
  int64_t trainSize() const override { return train_images_.size(0); }
  int64_t validationSize() const override { return test_images_.size(0); }
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  double trainingFlops(const std::vector<int64_t>& indices) const override;
  EvaluationOutcome evaluate(int max_samples, int decode_samples) override;
  AttentionSnapshot probeAttention(int index) override;
  SamplePrediction predictSample(int index) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  Expected<InferenceOutcome> inferImage(const ImageBuffer& image) override;

  const std::vector<std::string>& classNames() const { return class_names_; }

 private:
  /// uint8 (N, 3, H, W) → normalised float on the device.
  torch::Tensor normalise(const torch::Tensor& images) const;
  /// Random crop (zero padding 4) and horizontal flip, using the global (per-step seeded) RNG.
  torch::Tensor augment(const torch::Tensor& batch) const;
  ImageBuffer imageAt(int index) const;
  /// One forward pass over `image` (channel-planar RGB at the model's size) with its attention
  /// (CLS then one label per patch) and the image and patch grid to overlay it on; `logits` gets
  /// the class scores (1, classes). Model in eval mode, no grad.
  AttentionSnapshot attentionOf(ImageBuffer image, torch::Tensor* logits);
  /// inferImage, with the attention only when `with_attention` (the probe's sample needs none).
  Expected<InferenceOutcome> classify(const ImageBuffer& image, bool with_attention);

  TrainingConfig config_;
  torch::Device device_;
  std::vector<std::string> class_names_;
  torch::Tensor train_images_, train_labels_;  // uint8 (N, 3, H, W), int64 (N), on the CPU
  torch::Tensor test_images_, test_labels_;
  VisionTransformer model_{nullptr};
};

/// Class names from the run folder's classes.json.
Expected<std::vector<std::string>> loadClassNames(const std::string& run_dir);

}  // namespace ascope
