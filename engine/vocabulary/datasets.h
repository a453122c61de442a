#pragma once
// Plain in-memory datasets, the meeting point of loaders (real files), generators (built-in data)
// and the tasks (which turn them into tensors). No LibTorch here on purpose.
//
// Every dataset has three splits (engine/vocabulary/data_split.h). Loaders fill `train` and, where
// the data set has its own test split (aclImdb test/, CIFAR-10 test_batch.bin, test.csv, an image
// folder's test/), `test`; generators fill `train` and `test`. The task's data function then
// carves `validation` (and `test`, when there is none) from `train` with
// engine/datasets/held_out_splits.h, and `origins` says where each held-out split came from.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/data_split.h"

namespace ascope {

/// Where the held-out splits of a dataset came from, in words for the log and the run's figures,
/// e.g. "the data set's own test split (aclImdb/test)" or "2,500 reviews carved from the training
/// data". An empty `test` means the data has no test split.
struct SplitOrigins {
  std::string validation;
  std::string test;
};

/// One RGB image, channel-planar (R plane, then G, then B), row-major inside a plane — the same
/// layout as a CIFAR-10 binary record, so it maps onto a (3, H, W) tensor without reshuffling.
struct ImageSample {
  std::vector<std::uint8_t> pixels;  ///< 3 * height * width bytes
  int label = 0;
};

struct ImageDataset {
  std::vector<std::string> class_names;
  int height = 32;
  int width = 32;
  std::vector<ImageSample> train;
  std::vector<ImageSample> validation;
  std::vector<ImageSample> test;
  SplitOrigins origins;
};

/// A review; label 0 = negative, 1 = positive.
struct TextSample {
  std::string text;
  int label = 0;
};

struct TextDataset {
  std::vector<std::string> class_names{"negative", "positive"};
  std::vector<TextSample> train;
  std::vector<TextSample> validation;
  std::vector<TextSample> test;
  SplitOrigins origins;
};

struct TranslationPair {
  std::string source;
  std::string target;
};

struct TranslationDataset {
  std::string source_language = "en";
  std::string target_language = "it";
  std::vector<TranslationPair> train;
  std::vector<TranslationPair> validation;
  std::vector<TranslationPair> test;
  SplitOrigins origins;
};

/// The samples of one split of any of the datasets above.
template <class Dataset>
auto& splitSamples(Dataset& dataset, DataSplit split) {
  return split == DataSplit::kTrain
             ? dataset.train
             : (split == DataSplit::kValidation ? dataset.validation : dataset.test);
}

/// 0, 1, 2 for training, validation, test: an index into a task's per-split arrays.
inline std::size_t splitSlot(DataSplit split) {
  return static_cast<std::size_t>(split);
}

}  // namespace ascope
