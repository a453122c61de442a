#pragma once
// An answer lined up against its reference character by character, as the edit distance between
// them counts it: which characters match, which were replaced, left out or added.
#include <string>
#include <vector>

#include "engine/vocabulary/payloads/payload.h"

namespace ascope {

struct TextAlignment : Payload {
  static constexpr const char* kKind = "alignment";
  const char* kind() const override { return kKind; }

  enum class Edit : char {
    kMatch = '=',       ///< the same character in both
    kSubstitute = 'x',  ///< the answer has another character here
    kDelete = '-',      ///< the answer lacks the reference's character
    kInsert = '+',      ///< the answer has a character the reference lacks
  };
  struct Column {
    Edit edit = Edit::kMatch;
    std::string reference;  ///< one UTF-8 character; "" for kInsert
    std::string answer;     ///< one UTF-8 character; "" for kDelete
  };
  std::vector<Column> columns;

  /// Edits in the alignment: the Levenshtein distance of the two strings.
  int distance() const;
  /// A cheapest alignment of `answer` against `reference` (UTF-8, compared by code point).
  static TextAlignment align(const std::string& reference, const std::string& answer);
};

}  // namespace ascope
