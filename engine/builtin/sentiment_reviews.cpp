#include "engine/builtin/sentiment_reviews.h"

#include <algorithm>
#include <unordered_set>

#include "engine/builtin/review_writer.h"
#include "engine/builtin/seeded_random.h"

namespace ascope {
namespace {

// Short reviews can repeat; redrawing a test review this often before accepting a duplicate keeps
// the loop finite for any seed while making duplicates practically impossible.
constexpr int kMaxRedraws = 100;

std::vector<TextSample> writeSplit(SeededRandom& random, int count,
                                   std::unordered_set<std::string>* avoid) {
  std::vector<int> labels(static_cast<std::size_t>(std::max(count, 0)));
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<int>(i % 2);
  random.shuffle(labels);
  ReviewWriter writer(random);
  std::vector<TextSample> samples;
  samples.reserve(labels.size());
  for (int label : labels) {
    TextSample sample{writer.write(label == 1), label};
    for (int redraw = 0; avoid && avoid->count(sample.text) && redraw < kMaxRedraws; ++redraw) {
      sample.text = writer.write(label == 1);
    }
    samples.push_back(std::move(sample));
  }
  return samples;
}

}  // namespace

TextDataset generateSentimentReviews(const SentimentReviewsOptions& options) {
  SeededRandom random(options.seed);
  TextDataset dataset;
  dataset.train = writeSplit(random, options.train_count, nullptr);
  std::unordered_set<std::string> seen;
  for (const TextSample& sample : dataset.train) seen.insert(sample.text);
  dataset.test = writeSplit(random, options.test_count, &seen);
  return dataset;
}

}  // namespace ascope
