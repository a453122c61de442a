#pragma once
// An OPUS corpus in "moses" format: two line-aligned plain-text files, one sentence per line,
// named <corpus>.<src>-<tgt>.<lang> (e.g. Books.en-it.en and Books.en-it.it).
//
// Skipped and counted: a line pair with an empty side. Invalid UTF-8 is replaced and counted.
// Stops the load: files with different line counts (both files and both counts named), an empty
// file, no pair with text on both sides.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

class MosesPairReader {
 public:
  /// Pairs line i of `source` with line i of `target`; the names appear in messages.
  static Expected<Loaded<std::vector<TranslationPair>>> parse(std::string_view source,
                                                              const std::string& source_name,
                                                              std::string_view target,
                                                              const std::string& target_name);
  static Expected<Loaded<std::vector<TranslationPair>>> read(const std::string& source_path,
                                                             const std::string& target_path);

  /// The other file of the pair `path` belongs to: for "Books.en-it.en" and languages en, it the
  /// existing "Books.en-it.it". Returns (source file, target file), or empty strings when `path`
  /// does not end in either language or its partner does not exist.
  static std::pair<std::string, std::string> completePair(const std::string& path,
                                                          const std::string& source_language,
                                                          const std::string& target_language);

  /// The single pair of files in `folder` for the two languages; an error when there is none or
  /// more than one (the candidates are listed).
  static Expected<std::pair<std::string, std::string>> findPairInFolder(
      const std::string& folder, const std::string& source_language,
      const std::string& target_language);
};

}  // namespace ascope
