#pragma once
// Sentence pairs as JSON lines, the Hugging Face export of opus_books:
//   {"id": "0", "translation": {"en": "…", "it": "…"}}
// The two languages are chosen by the caller; a line whose object has the languages at the top
// level ({"en": "…", "it": "…"}) is accepted too.
//
// Skipped and counted: a line that is not JSON, a line without string values for both languages,
// a pair with an empty side. Blank lines are ignored. Invalid UTF-8 is replaced by U+FFFD before
// the line is parsed (JSON must be UTF-8) and counted.
// Stops the load: an empty file, no valid line.
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

class JsonLinesPairReader {
 public:
  /// Parses a whole file already in memory; `name` appears in messages.
  static Expected<Loaded<std::vector<TranslationPair>>> parse(std::string_view bytes,
                                                              const std::string& name,
                                                              const std::string& source_language,
                                                              const std::string& target_language);
  static Expected<Loaded<std::vector<TranslationPair>>> read(const std::string& path,
                                                             const std::string& source_language,
                                                             const std::string& target_language);
};

}  // namespace ascope
