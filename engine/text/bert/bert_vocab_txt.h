#pragma once
// BERT's vocab.txt: one token per line, the token's id is its line number counted from 0. Lines
// end in \n, \r\n or \r (Python's text mode, which Hugging Face reads it in); a last line without
// an ending counts, an empty line is the empty token.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Tokenizer vocabularies hold at most a few hundred thousand tokens.
inline constexpr std::uint64_t kMaxVocabTxtBytes = std::uint64_t{64} << 20;

/// The tokens of vocab.txt text, by id. Errors start with `name` and give the line: not UTF-8, or
/// a token that an earlier line already has.
Expected<std::vector<std::string>> parseVocabTxt(std::string_view text, const std::string& name);

/// Reads and parses the vocab.txt file at `path` (a regular file of at most kMaxVocabTxtBytes).
Expected<std::vector<std::string>> readVocabTxt(const std::string& path);

}  // namespace ascope
