#pragma once
// Built-in text classification data: short English movie reviews, labelled by the rules in
// review_writer.h (negation flips, the main clause of a contrast wins). Learnable by a one-layer
// transformer, and the attention has to find the negations and the "but" to get the hard cases.
#include <cstdint>

#include "engine/vocabulary/datasets.h"

namespace ascope {

struct SentimentReviewsOptions {
  /// Training reviews; half positive, half negative (one more negative when odd).
  int train_count = 8000;
  /// Test reviews, balanced the same way; none is a verbatim copy of a training review.
  int test_count = 2000;
  /// The same seed gives identical reviews on every machine.
  std::uint64_t seed = 1;
};

/// Labels: 0 = negative, 1 = positive (TextDataset::class_names).
TextDataset generateSentimentReviews(const SentimentReviewsOptions& options);

}  // namespace ascope
