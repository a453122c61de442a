#include "engine/text/bert/wordpiece_tokenizer.h"

#include <algorithm>
#include <limits>

#include "engine/text/unicode/utf8_code_points.h"

namespace ascope {
namespace {

bool continuesSequence(char byte) {
  return (static_cast<unsigned char>(byte) & 0xC0) == 0x80;
}

/// The greatest code point boundary of `word` at or before `end`.
std::size_t boundaryAtOrBefore(std::string_view word, std::size_t end) {
  while (end > 0 && end < word.size() && continuesSequence(word[end])) --end;
  return end;
}

}  // namespace

Expected<WordPieceTokenizer> WordPieceTokenizer::create(std::vector<std::string> tokens,
                                                        WordPieceSettings settings,
                                                        const std::string& name) {
  if (tokens.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    return Error{name + ": " + std::to_string(tokens.size()) + " tokens are too many"};
  }
  WordPieceTokenizer tokenizer;
  tokenizer.tokens_ = std::move(tokens);
  tokenizer.settings_ = std::move(settings);
  const std::string_view prefix = tokenizer.settings_.continuing_subword_prefix;
  for (std::size_t id = 0; id < tokenizer.tokens_.size(); ++id) {
    const std::string_view token = tokenizer.tokens_[id];
    const auto signed_id = static_cast<std::int32_t>(id);
    if (!tokenizer.starts_.insert(token, signed_id)) {
      return Error{name + ": token \"" + std::string(token) + "\" has two ids, " +
                   std::to_string(tokenizer.starts_.find(token)) + " and " + std::to_string(id)};
    }
    tokenizer.longest_start_ = std::max(tokenizer.longest_start_, token.size());
    if (token.substr(0, prefix.size()) == prefix) {
      const std::string_view rest = token.substr(prefix.size());
      tokenizer.continuations_.insert(rest, signed_id);
      tokenizer.longest_continuation_ = std::max(tokenizer.longest_continuation_, rest.size());
    }
  }
  const std::int64_t unk = tokenizer.idOf(tokenizer.settings_.unk_token);
  if (unk < 0) {
    return Error{name + ": the unknown token \"" + tokenizer.settings_.unk_token +
                 "\" is not in the vocabulary"};
  }
  tokenizer.unk_id_ = unk;
  return tokenizer;
}

void WordPieceTokenizer::appendIds(std::string_view word, std::vector<std::int64_t>& ids) const {
  if (word.empty()) return;
  if (countCodePoints(word) > settings_.max_input_chars_per_word) {
    ids.push_back(unk_id_);
    return;
  }
  const std::size_t first_piece = ids.size();
  std::size_t start = 0;
  while (start < word.size()) {
    const auto& index = start == 0 ? starts_ : continuations_;
    const std::size_t longest = start == 0 ? longest_start_ : longest_continuation_;
    std::size_t end = boundaryAtOrBefore(word, std::min(word.size(), start + longest));
    std::int32_t found = -1;
    while (end > start) {
      found = index.find(word.substr(start, end - start));
      if (found >= 0) break;
      end = boundaryAtOrBefore(word, end - 1);
    }
    if (found < 0) {
      ids.resize(first_piece);
      ids.push_back(unk_id_);
      return;
    }
    ids.push_back(found);
    start = end;
  }
}

std::vector<std::string> WordPieceTokenizer::tokenize(std::string_view word) const {
  std::vector<std::int64_t> ids;
  appendIds(word, ids);
  std::vector<std::string> pieces;
  pieces.reserve(ids.size());
  for (const std::int64_t id : ids) pieces.push_back(tokenOf(id));
  return pieces;
}

std::int64_t WordPieceTokenizer::idOf(std::string_view token) const {
  return starts_.find(token);
}

const std::string& WordPieceTokenizer::tokenOf(std::int64_t id) const {
  static const std::string none;
  if (tokens_.empty()) return none;
  if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) {
    return tokens_[static_cast<std::size_t>(unk_id_)];
  }
  return tokens_[static_cast<std::size_t>(id)];
}

}  // namespace ascope
