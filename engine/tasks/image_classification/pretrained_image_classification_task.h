#pragma once
// The image task with a pretrained Hugging Face ViT (TrainingConfig::pretrained) in place of our
// own: its encoder with a fresh head for the task's classes, every image resized and normalised by
// the model's own image processor (preprocessor_config.json), as transformers feeds it. Images are
// kept at the data's size and resized batch by batch (CIFAR-10 at 224 × 224 would take gigabytes).
// A run folder keeps the model's config.json and preprocessor_config.json under pretrained/, and
// classes.json beside them, so that inference needs only the run.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/imaging/vit_image_processor.h"
#include "engine/pretrained/vit_model.h"
#include "engine/tasks/image_classification/image_dataset_task.h"
#include "engine/vocabulary/datasets.h"

namespace ascope {

class PretrainedImageClassificationTask : public ImageDatasetTask {
 public:
  /// Reads config.pretrained (weights, image processor); `data` gives the classes.
  static Expected<std::unique_ptr<Task>> forTraining(const TrainingConfig& config,
                                                     ImageDataset data,
                                                     const torch::Device& device);
  /// The model of a trained run, shaped by run_dir/pretrained/config.json with the run's
  /// classes.json; its weights come from the checkpoint the caller loads. `data` (may be
  /// empty) is what it is asked to score; its classes must be the run's.
  static Expected<std::unique_ptr<Task>> forInference(const TrainingConfig& config,
                                                      const std::string& run_dir,
                                                      const torch::Device& device,
                                                      ImageDataset data = {});

  /// `model_folder` is where saveArtifacts copies the model's files from ("" for inference);
  /// `data` may have empty splits (inference).
  PretrainedImageClassificationTask(const TrainingConfig& config, ImageDataset data,
                                    VitImageProcessor processor, VitModel model,
                                    std::string model_folder, const torch::Device& device);

  torch::nn::Module& model() override { return *model_; }
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  AttentionSnapshot probeAttention(int index) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  /// Any size of channel-planar RGB: the image processor resizes it to the model's size.
  Expected<InferenceOutcome> inferImage(const ImageBuffer& image) override;
  std::optional<PatchGrid> patchGrid() const override;

 private:
  /// uint8 (B, 3, H, W) on the CPU → the model's pixel_values (B, 3, side, side) on the device.
  torch::Tensor pixelValues(const torch::Tensor& images) const;
  int64_t gridSide() const;
  Expected<InferenceOutcome> classify(const ImageBuffer& image, bool with_attention) override;
  std::shared_ptr<const ImagePayload> imagePayload(ImageBuffer image) const override;
  torch::Tensor logitsOfImages(const torch::Tensor& images) override;
  int64_t evaluationBatch() const override { return config_.batch_size; }

  TrainingConfig config_;
  bool augment_ = false;  ///< config_'s ImageDataSettings::augment
  torch::Device device_;
  VitImageProcessor processor_;
  std::string model_folder_;
  VitModel model_{nullptr};
};

}  // namespace ascope
