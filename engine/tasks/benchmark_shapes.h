#pragma once
// Shapes `bench` can fix so that a training step does exactly the work of another implementation's
// step: the seeds' PyTorch models are timed on random token ids of a fixed vocabulary and length
// (torch.randint(1, V, (B, L))), not on a corpus. Plain C++: the CLI fills it in.
#include <cstdint>

namespace ascope {

struct BenchmarkShapes {
  /// > 0: train on random words over a vocabulary of exactly this many ids (special ids included)
  /// instead of the data, every sample as long as the model takes (sentiment: max_len;
  /// translation: pad_to, else seq_len). Text tasks only.
  int64_t vocab = 0;
  /// > 0: every batch padded to this many source and decoder tokens, however short its pairs
  /// (translation only; a pair longer than this is an error, not cut).
  int64_t pad_to = 0;

  bool any() const { return vocab > 0 || pad_to > 0; }
};

}  // namespace ascope
