#pragma once
// Datasets of random words for benchmarks that must do the work of a model fed random token ids
// (the seeds time theirs on torch.randint(first_id, V, (B, L))). Going through text keeps the
// task's own tokenizer, batching and padding in the timed step; only the words are made up:
// "w0" … "w{words-1}", consecutive seeded shuffles of the whole word list cut into samples, so
// every word is used equally often (±1) and at least once when the samples hold as many words as
// the list, which makes a tokenizer fitted with minimum frequency 1 see exactly `words` words.
#include <cstdint>

#include "engine/vocabulary/datasets.h"

namespace ascope {

struct RandomWordOptions {
  int64_t words = 2;   ///< distinct words (≥ 1)
  int64_t length = 1;  ///< words per text (≥ 1)
  int train_count = 64;
  int test_count = 16;
  std::uint64_t seed = 1;
};

/// Reviews of exactly `length` words; labels alternate 0, 1 (the words do not predict them).
TextDataset generateRandomWordReviews(const RandomWordOptions& options);

/// Pairs whose source and target are each exactly `length` words, drawn independently.
TranslationDataset generateRandomWordPairs(const RandomWordOptions& options);

}  // namespace ascope
