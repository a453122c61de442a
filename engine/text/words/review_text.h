#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace ascope {

/// A review as stored in IMDB files, ready for the dataset: invalid UTF-8 replaced by U+FFFD (the
/// count is added to `replaced_utf8`) and the HTML line breaks IMDB keeps in its text (`<br />`,
/// also
/// `<br/>` and `<br>`, any case) replaced by a space so the words on either side stay apart.
std::string cleanReviewText(std::string_view raw, std::size_t& replaced_utf8);

}  // namespace ascope
