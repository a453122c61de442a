#pragma once
// Bytes from a file on their way into a message for a person: the one sanitiser every message
// that quotes a file's bytes goes through (a run folder's pieces, their SentencePiece errors, a
// link's target, a CSV field). A terminal obeys escape sequences, so a file quoted raw could
// retitle or clear the terminal, fake a line of output, or hide text behind bidirectional
// overrides; bytes that are not UTF-8 garble the terminal, the log and the window alike.
#include <cstddef>
#include <string>
#include <string_view>

namespace ascope {

/// The longest quote a message takes by default, in bytes.
inline constexpr std::size_t kMaxQuotedBytes = 300;

/// `bytes` with everything a terminal would act on written out instead: control characters (C0,
/// DEL, C1) and bidirectional formatting characters as \xHH or \u{HHHH}, each byte that is not
/// UTF-8 as \xHH. Valid, printable UTF-8 is kept as it is, so the result is its own printable
/// text. Past `max_bytes` the text ends in "…" (cut at a character boundary).
std::string printableText(std::string_view bytes, std::size_t max_bytes = kMaxQuotedBytes);

/// True when `text` could be printableText's result: valid UTF-8 with nothing a terminal acts on,
/// at most `max_bytes` and the ellipsis.
bool isPrintableText(std::string_view text, std::size_t max_bytes = kMaxQuotedBytes);

}  // namespace ascope
