#pragma once
// Opens libattentionscope_sentencepiece.so once per process (library/sentence_piece_api.h says
// why SentencePiece is not linked into the program): next to the installed program first
// (<prefix>/lib/<triplet>/attentionscope/ in the package), then in the build tree it was built in
// (not in a package).
#include "engine/text/pieces/library/sentence_piece_api.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class SentencePieceLibrary {
 public:
  /// The library's table, or why there is none (not built, not found, not loadable): said once,
  /// the same answer every time after.
  static Expected<const SentencePieceApi*> api();
};

}  // namespace ascope
