#pragma once
// Text a server chose (an error message, a status line's reason, an ETag, a commit id) on its way
// into a message for a person. A terminal obeys escape sequences, so a hostile server could
// otherwise rewrite what the user sees (clear the screen, fake a success line, retitle the
// window) or hide text behind bidirectional overrides.
#include <cstddef>
#include <string>
#include <string_view>

namespace ascope {

/// The longest server text a message quotes, in bytes; longer text ends in "…".
inline constexpr std::size_t kMaxServerTextBytes = 300;

/// `text` through the one sanitiser of quoted bytes (printableText, engine/core): control
/// and bidirectional formatting characters and bytes that are not UTF-8 written out as \xHH or
/// \u{HHHH}, cut to kMaxServerTextBytes at a character boundary.
std::string printableServerText(std::string_view text);

/// True when `text` is what printableServerText() returns for some input: valid UTF-8 without
/// control or bidirectional formatting characters, at most kMaxServerTextBytes + the ellipsis.
bool isPrintableServerText(std::string_view text);

}  // namespace ascope
