#pragma once
// The Large Movie Review Dataset as distributed (aclImdb_v1.tar.gz):
// aclImdb/{train,test}/{pos,neg}/ <id>_<rating>.txt, one review per file. unsup/ and the other
// files are ignored; the label comes from the folder (neg = 0, pos = 1). Within a split, negative
// reviews come first, then positive, each in order of their numeric id, so the order does not
// depend on the file system.
//
// Skipped and counted: an empty review file. Invalid UTF-8 is replaced by U+FFFD and counted.
// Stops the load: a missing train/pos, train/neg, test/pos or test/neg folder (all missing ones are
// listed), one of them without any .txt file, a file that cannot be read.
#include <string>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

class AclImdbReader {
 public:
  /// The aclImdb folder: `path`/aclImdb when that exists, else `path` when it holds train/ and
  /// test/; empty when neither does.
  static std::string findRoot(const std::string& path);

  static Expected<Loaded<TextDataset>> read(const std::string& path);
};

}  // namespace ascope
