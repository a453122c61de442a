#pragma once
// Plain in-memory datasets, the meeting point of loaders (real files), generators (built-in data)
// and the tasks (which turn them into tensors). No LibTorch here on purpose.
#include <cstdint>
#include <string>
#include <vector>

namespace ascope {

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
  std::vector<ImageSample> test;
};

/// A review; label 0 = negative, 1 = positive.
struct TextSample {
  std::string text;
  int label = 0;
};

struct TextDataset {
  std::vector<std::string> class_names{"negative", "positive"};
  std::vector<TextSample> train;
  std::vector<TextSample> test;
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
};

}  // namespace ascope
