#pragma once
// CIFAR-10 "binary version" (cifar-10-batches-bin/): data_batch_1..5.bin, test_batch.bin and
// batches.meta.txt. Each record is 1 label byte followed by 3072 pixel bytes: the 32x32 red plane,
// then green, then blue, row-major — exactly ImageSample's layout, so records are copied as they
// are.
//
// Stops the load: a missing file (all missing ones are listed), an empty batch, a batch whose size
// is not a multiple of 3073 bytes (names the file and its size), a label above 9 (names the file
// and the record index), a batches.meta.txt without exactly 10 class names. Nothing is skipped: a
// damaged batch means a damaged download, and training on part of it would hide that.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

class Cifar10BinaryReader {
 public:
  static constexpr int kSide = 32;
  static constexpr std::size_t kPixelBytes = 3 * kSide * kSide;
  static constexpr std::size_t kRecordBytes = 1 + kPixelBytes;
  static constexpr int kClasses = 10;

  /// The folder that holds the batch files: `path` itself, or `path`/cifar-10-batches-bin when
  /// `path` is its parent. Empty when neither looks like CIFAR-10 (no batch file in either).
  static std::string findBatchFolder(const std::string& path);

  /// Reads all five training batches, the test batch and the class names.
  static Expected<Loaded<ImageDataset>> read(const std::string& path);

  /// Parses one batch already in memory; `name` appears in messages (usually the file name).
  static Expected<std::vector<ImageSample>> parseBatch(std::string_view bytes,
                                                       const std::string& name);

  /// Parses batches.meta.txt: one class name per line, blank lines and CR ignored.
  static Expected<std::vector<std::string>> parseClassNames(std::string_view text,
                                                            const std::string& name);
};

}  // namespace ascope
