#include "engine/tasks/image_classification/image_dataset_task.h"

#include <algorithm>

#include "engine/tasks/classifier_evaluation.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/image_classification/image_tensors.h"

namespace ascope {

ImageDatasetTask::ImageDatasetTask(const ImageDataset& data)
    : class_names_(data.class_names), origins_(data.origins) {
  for (DataSplit split : {DataSplit::kTrain, DataSplit::kValidation, DataSplit::kTest}) {
    const std::size_t k = splitSlot(split);
    toImageTensors(splitSamples(data, split), data.height, data.width, &images_[k], &labels_[k]);
  }
}

SamplePrediction ImageDatasetTask::validationSample(int64_t row) const {
  SamplePrediction p;
  p.task = kImageClassificationTaskId;
  p.sample_index = static_cast<int>(row);
  p.payloads.put(imagePayload(imageBufferAt(images_[1], row)));
  p.expected = class_names_[static_cast<std::size_t>(labels_[1][row].item<int64_t>())];
  return p;
}

const ImageBuffer& ImageDatasetTask::imageOf(const SamplePrediction& sample) {
  static const ImageBuffer kNone;
  const ImagePayload* image = sample.payloads.find<ImagePayload>();
  return image ? image->image : kNone;
}

SamplePrediction ImageDatasetTask::predictSample(int index) {
  SamplePrediction p = validationSample(index % std::max<int64_t>(1, validationSize()));
  recordPrediction(classify(imageOf(p), /*with_attention=*/false), &p);
  return p;
}

EvaluationOutcome ImageDatasetTask::evaluate(DataSplit split, int max_samples,
                                             FigureSamples /*figures*/) {
  const std::size_t k = splitSlot(split);
  return evaluateClassifier(model(), labels_[k], max_samples, evaluationBatch(),
                            [this, k](int64_t start, int64_t count) {
                              return logitsOfImages(images_[k].narrow(0, start, count));
                            });
}

Expected<std::vector<ScoredSample>> ImageDatasetTask::scoreSplit(DataSplit split,
                                                                 const ScoringProgress& progress) {
  const std::size_t k = splitSlot(split);
  return scoreClassifierRows(
      model(), labels_[k], evaluationBatch(),
      [this, k](int64_t start, int64_t count) {
        return logitsOfImages(images_[k].narrow(0, start, count));
      },
      class_names_,
      [&](int64_t row, SamplePrediction& p) {
        p.task = kImageClassificationTaskId;
        p.payloads.put(imagePayload(imageBufferAt(images_[k], row)));
      },
      progress);
}

}  // namespace ascope
