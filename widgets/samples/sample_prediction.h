#pragma once

#include "widgets/images/rgb_image.h"

#include <QString>

#include <vector>

namespace ascope {

/// The probe image with the model's verdict on it.
struct ImagePrediction {
  RgbImage image;
  QString true_label;
  QString predicted_label;
  float probability = 0.0f;  ///< of the predicted class, 0..1
};

/// The probe review (or any text) with the model's verdict on it.
struct TextPrediction {
  QString text;
  QString true_label;
  QString predicted_label;
  float probability = 0.0f;  ///< of the predicted class, 0..1
};

/// The probe sentence pair and what the model made of it.
struct TranslationPrediction {
  QString source;
  QString reference;
  QString hypothesis;  ///< the model's output
  /// The training step whose weights translated it; -1 when not known. A probe of the timeline
  /// translates only now and then (decoding costs dozens of probes), so this may be earlier than
  /// the step on show.
  long long translated_at_step = -1;
};

/// One column of an answer lined up against its reference (TextAlignmentView).
struct AlignedColumn {
  enum class Edit { Match, Substitute, Delete, Insert };
  Edit edit = Edit::Match;
  QString reference;  ///< one character; empty for Insert
  QString answer;     ///< one character; empty for Delete
};

/// An input and the model's answer lined up against the expected one, character by character.
struct AlignmentPrediction {
  QString input;
  QString input_title = QStringLiteral("input");
  QString expected_title = QStringLiteral("expected");
  QString answer_title = QStringLiteral("answer");
  std::vector<AlignedColumn> columns;
};

}  // namespace ascope
