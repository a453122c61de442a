#pragma once
// Sentence pairs as tab-separated lines: source TAB target [TAB anything else, ignored] (the
// Tatoeba/ManyThings export and most hand-made corpora). Column 1 is the source, column 2 the
// target.
//
// Skipped and counted: a line with fewer than two columns, a pair with an empty side. Blank lines
// are ignored. Invalid UTF-8 is replaced and counted.
// Stops the load: an empty file, no valid line.
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

class TsvPairReader {
 public:
  /// Parses a whole file already in memory; `name` appears in messages.
  static Expected<Loaded<std::vector<TranslationPair>>> parse(std::string_view bytes,
                                                              const std::string& name);
  static Expected<Loaded<std::vector<TranslationPair>>> read(const std::string& path);
};

}  // namespace ascope
