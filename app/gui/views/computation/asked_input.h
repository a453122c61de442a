#pragma once
// An input asked outside the run's probe set and under the scope now: a "Try it" text or image
// on the shown run's newest checkpoint, or a pretrained model read by File → Inspect pretrained
// model…. The Computation view asks the engine about the same input.
#include <QString>

namespace ascope {

struct AskedInput {
  QString model_folder;  ///< a pretrained model's folder; "" = the shown run's checkpoint
  QString text;
  QString text_pair;  ///< a pretrained BERT's second sentence
  QString image_file;

  bool isEmpty() const { return text.isEmpty() && image_file.isEmpty(); }
};

}  // namespace ascope
