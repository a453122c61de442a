#include "engine/text/imdb_word_splitter.h"

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

bool ImdbWordSplitter::next(std::string_view& word) {
  word_.clear();
  const std::size_t n = text_.size();
  while (pos_ < n) {
    const auto byte = static_cast<unsigned char>(text_[pos_]);
    const char mapped = kWordTable[byte];
    if (mapped != 0) {
      word_.push_back(mapped);
      ++pos_;
      continue;
    }
    if (byte == 0xE2 && n - pos_ >= 3 && text_[pos_ + 1] == '\x84' && text_[pos_ + 2] == '\xAA') {
      word_.push_back('k');  // U+212A KELVIN SIGN lowers to "k"
      pos_ += 3;
      continue;
    }
    if (byte == 0xC4 && n - pos_ >= 2 && text_[pos_ + 1] == '\xB0') {
      word_.push_back('i');  // U+0130 lowers to "i" + U+0307, and U+0307 breaks the word
      pos_ += 2;
      break;
    }
    ++pos_;
    if (!word_.empty()) break;
  }
  word = word_;
  return !word_.empty();
}

}  // namespace ascope
