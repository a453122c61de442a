#pragma once
// IMDB reviews as CSV with a header: `text,label` with labels 0/1, or `review,sentiment` with
// positive/negative (the Kaggle "IMDB Dataset.csv"). Header names and labels are matched without
// regard to case or surrounding spaces; either label spelling is accepted under either header.
// Extra columns are ignored and the two columns may come in any order.
//
// Skipped and counted (with the first line numbers): a row with a missing column, an unknown label,
// an empty text, or an unterminated quote. Blank lines are ignored without a count. Invalid UTF-8
// is replaced by U+FFFD and counted.
// Stops the load: an empty file, a header without the expected columns, no valid row at all.
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/loaded.h"

namespace ascope {

class ImdbCsvReader {
 public:
  /// Parses a whole CSV already in memory; `name` (usually the path) appears in messages.
  static Expected<Loaded<std::vector<TextSample>>> parse(std::string_view bytes,
                                                         const std::string& name);
  static Expected<Loaded<std::vector<TextSample>>> read(const std::string& path);
};

}  // namespace ascope
