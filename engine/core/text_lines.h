#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ascope {

/// Splits text into lines on LF, dropping one CR before each LF (files written on Windows). A final
/// line without LF counts; a final LF does not start another line; empty text has no lines.
std::vector<std::string_view> splitLines(std::string_view text);

/// `text` up to its first LF (all of it when it has none): the line a message quotes.
std::string firstLine(const std::string& text);

/// `text` without leading and trailing spaces, tabs, CR and LF.
std::string_view trimSpace(std::string_view text);

/// `text` with ASCII capitals lowered; other bytes unchanged.
std::string lowerAscii(std::string_view text);

}  // namespace ascope
