#include "engine/tasks/image_classification/image_dataset_task.h"

#include <algorithm>

#include "engine/tasks/classifier_evaluation.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/image_classification/image_tensors.h"

namespace ascope {

ImageDatasetTask::ImageDatasetTask(const ImageDataset& data) : class_names_(data.class_names) {
  toImageTensors(data.train, data.height, data.width, &train_images_, &train_labels_);
  toImageTensors(data.test, data.height, data.width, &test_images_, &test_labels_);
}

SamplePrediction ImageDatasetTask::predictSample(int index) {
  index = static_cast<int>(index % std::max<int64_t>(1, validationSize()));
  SamplePrediction p;
  p.task = kImageClassificationTaskId;
  p.sample_index = index;
  p.image = imageBufferAt(test_images_, index);
  p.true_label = class_names_[test_labels_[index].item<int64_t>()];
  recordPrediction(classify(p.image, /*with_attention=*/false), &p);
  return p;
}

}  // namespace ascope
