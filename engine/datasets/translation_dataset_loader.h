#pragma once
// The one entry point for translation data: finds out what the path is and reads it, then splits
// the pairs 90/10 into train and validation with a seeded shuffle (the reference's random_split
// with int(0.9 * len)).
//   - two paths                                   → a moses pair: first source, second target
//   - a file ending in .<src> or .<tgt> with its partner beside it → that moses pair
//   - a folder                                    → its one moses pair for the languages, else its
//                                                   one .jsonl/.json or .tsv file
//   - a .jsonl/.json/.ndjson file                 → JsonLinesPairReader for the chosen languages
//   - a .tsv file                                 → TsvPairReader (column 1 source, column 2
//   target)
//   - any other file: JSON lines when it starts with '{', TSV when its first line has a TAB.
// What is skipped and what stops the load is listed in the three readers' headers.
#include <cstdint>
#include <string>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

struct TranslationLoadOptions {
  /// Language code of the source side; names moses files (.en) and JSON keys ("en").
  std::string source_language = "en";
  /// Language code of the target side.
  std::string target_language = "it";
  /// Seeds the shuffle before the split.
  std::uint64_t seed = 42;
  /// Share of the pairs that becomes the training split; the rest is validation.
  double train_fraction = 0.9;
};

Expected<Loaded<TranslationDataset>> loadTranslationDataset(
    const std::string& path, const TranslationLoadOptions& options = {});

/// A moses pair given as its two files.
Expected<Loaded<TranslationDataset>> loadTranslationDataset(
    const std::string& source_path, const std::string& target_path,
    const TranslationLoadOptions& options = {});

}  // namespace ascope
