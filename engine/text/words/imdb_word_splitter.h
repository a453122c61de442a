#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace ascope {

/// The reference's IMDB word split, `re.sub("[^a-z0-9]", " ", text.lower()).split()`, without
/// building the lowered copy: each byte maps through a table to its lowercase letter or digit, or
/// to a word break. Python's lower() turns exactly two non-ASCII characters into ASCII — U+212A
/// KELVIN SIGN into "k" and U+0130 into "i" + U+0307 — so those two are mapped too; every other
/// non-ASCII byte breaks words, as it does in the reference.
class ImdbWordSplitter {
 public:
  /// `text` is not copied and must outlive the splitter.
  explicit ImdbWordSplitter(std::string_view text) : text_(text) { word_.reserve(32); }

  /// The next word, valid until the next call; false at the end of the text.
  bool next(std::string_view& word);

 private:
  std::size_t specialLength(std::size_t at) const;

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string word_;  // lowered copy when a word is not lowercase already; reused
};

}  // namespace ascope
