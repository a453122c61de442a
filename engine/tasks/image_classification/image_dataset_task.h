#pragma once
// What the two image tasks (our own ViT and a pretrained Hugging Face one) share: the dataset kept
// as uint8 tensors on the CPU between batches, split by split, its class names, a validation
// image's prediction made by the task's own classify, and the passes over a split.
#include <array>
#include <string>
#include <vector>

#include "engine/tasks/task.h"
#include "engine/vocabulary/datasets.h"

namespace ascope {

class ImageDatasetTask : public Task {
 public:
  int64_t trainSize() const override { return images_[0].size(0); }
  int64_t validationSize() const override { return images_[1].size(0); }
  int64_t testSize() const override { return images_[2].size(0); }
  SplitOrigins splitOrigins() const override { return origins_; }
  SamplePrediction predictSample(int index) override;
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override;
  Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                 const ScoringProgress& progress) override;

  std::vector<std::string> classNames() const override { return class_names_; }

 protected:
  /// Copies `data`'s class names and images (its splits may be empty: inference).
  explicit ImageDatasetTask(const ImageDataset& data);

  /// An image (channel-planar RGB) classified by the task's model, with the attention only when
  /// `with_attention` (a sample's prediction needs none).
  virtual Expected<InferenceOutcome> classify(const ImageBuffer& image, bool with_attention) = 0;
  /// Class scores (B, classes) of uint8 images (B, 3, H, W) on the CPU.
  virtual torch::Tensor logitsOfImages(const torch::Tensor& images) = 0;
  /// Validation image `row` as a sample to predict: the image and its true label, no answer yet.
  SamplePrediction validationSample(int64_t row) const;
  /// `image` as the payload its samples and snapshots carry: the picture with the model's patch
  /// grid.
  virtual std::shared_ptr<const ImagePayload> imagePayload(ImageBuffer image) const = 0;
  /// The image a sample carries (empty when it has none).
  static const ImageBuffer& imageOf(const SamplePrediction& sample);
  /// Images a validation or test pass takes at once.
  virtual int64_t evaluationBatch() const = 0;

  std::vector<std::string> class_names_;
  /// Per split (splitSlot): uint8 (N, 3, H, W) images and int64 (N) labels, on the CPU.
  std::array<torch::Tensor, 3> images_, labels_;
  SplitOrigins origins_;
};

}  // namespace ascope
