#pragma once
// What the two image tasks (our own ViT and a pretrained Hugging Face one) share: the dataset kept
// as uint8 tensors on the CPU between batches, its class names, and a validation image's
// prediction made by the task's own classify.
#include <string>
#include <vector>

#include "engine/tasks/task.h"
#include "engine/vocabulary/datasets.h"

namespace ascope {

class ImageDatasetTask : public Task {
 public:
  int64_t trainSize() const override { return train_images_.size(0); }
  int64_t validationSize() const override { return test_images_.size(0); }
  SamplePrediction predictSample(int index) override;

  const std::vector<std::string>& classNames() const { return class_names_; }

 protected:
  /// Copies `data`'s class names and images (its splits may be empty: inference).
  explicit ImageDatasetTask(const ImageDataset& data);

  /// An image (channel-planar RGB) classified by the task's model, with the attention only when
  /// `with_attention` (a sample's prediction needs none).
  virtual Expected<InferenceOutcome> classify(const ImageBuffer& image, bool with_attention) = 0;

  std::vector<std::string> class_names_;
  torch::Tensor train_images_, train_labels_;  // uint8 (N, 3, H, W), int64 (N), on the CPU
  torch::Tensor test_images_, test_labels_;
};

}  // namespace ascope
