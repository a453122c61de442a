#include "engine/text/words/imdb_word_splitter.h"

#include <array>

namespace ascope {
namespace {

/// Byte → its lowercase [a-z0-9] character, or 0 where the reference puts a space.
constexpr std::array<char, 256> makeWordTable() {
  std::array<char, 256> table{};
  for (int c = '0'; c <= '9'; ++c) table[static_cast<std::size_t>(c)] = static_cast<char>(c);
  for (int c = 'a'; c <= 'z'; ++c) table[static_cast<std::size_t>(c)] = static_cast<char>(c);
  for (int c = 'A'; c <= 'Z'; ++c)
    table[static_cast<std::size_t>(c)] = static_cast<char>(c - 'A' + 'a');
  return table;
}
constexpr std::array<char, 256> kWordTable = makeWordTable();

}  // namespace

/// 3 at U+212A KELVIN SIGN, 2 at U+0130, else 0: the two non-ASCII characters that lower to ASCII.
std::size_t ImdbWordSplitter::specialLength(std::size_t at) const {
  const std::size_t left = text_.size() - at;
  if (text_[at] == '\xE2' && left >= 3 && text_[at + 1] == '\x84' && text_[at + 2] == '\xAA')
    return 3;
  if (text_[at] == '\xC4' && left >= 2 && text_[at + 1] == '\xB0') return 2;
  return 0;
}

bool ImdbWordSplitter::next(std::string_view& word) {
  const std::size_t n = text_.size();
  const auto byteAt = [this](std::size_t at) { return static_cast<unsigned char>(text_[at]); };
  while (pos_ < n && kWordTable[byteAt(pos_)] == 0 && specialLength(pos_) == 0) ++pos_;
  if (pos_ >= n) return false;

  // Fast path: most words are written in lowercase already, and those are returned as views into
  // the text without a copy. A capital or one of the special characters falls through to the copy.
  const std::size_t start = pos_;
  while (pos_ < n) {
    const char mapped = kWordTable[byteAt(pos_)];
    if (mapped == 0 || mapped != text_[pos_]) break;
    ++pos_;
  }
  if (pos_ > start && (pos_ == n || (kWordTable[byteAt(pos_)] == 0 && specialLength(pos_) == 0))) {
    word = text_.substr(start, pos_ - start);
    return true;
  }

  word_.assign(text_.data() + start, pos_ - start);
  while (pos_ < n) {
    const char mapped = kWordTable[byteAt(pos_)];
    if (mapped != 0) {
      word_.push_back(mapped);
      ++pos_;
      continue;
    }
    const std::size_t special = specialLength(pos_);
    if (special == 0) break;
    pos_ += special;
    if (special == 3) {
      word_.push_back('k');  // U+212A KELVIN SIGN lowers to "k"
      continue;
    }
    word_.push_back('i');  // U+0130 lowers to "i" + U+0307, and U+0307 breaks the word
    break;
  }
  word = word_;
  return true;
}

}  // namespace ascope
