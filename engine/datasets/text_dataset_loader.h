#pragma once
// The one entry point for sentiment data: finds out what `path` is and reads it.
//   - an aclImdb tree (the folder itself or its parent)            → AclImdbReader, its own split
//   - a folder with train.csv and test.csv                          → ImdbCsvReader on each
//   - a CSV file, or a folder holding exactly one .csv               → ImdbCsvReader, then a seeded
//     80/20 train/test split: a CSV has no split of its own, and 80/20 is the usual hold-out for
//     the 50,000-review Kaggle file (40,000 / 10,000).
// What is skipped and what stops the load is listed in acl_imdb_reader.h and imdb_csv_reader.h.
#include <cstdint>
#include <string>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

struct TextLoadOptions {
  /// Seeds the shuffle of a single CSV before it is split.
  std::uint64_t seed = 42;
  /// Share of a single CSV that becomes the training split.
  double train_fraction = 0.8;
};

Expected<Loaded<TextDataset>> loadTextDataset(const std::string& path,
                                              const TextLoadOptions& options = {});

}  // namespace ascope
