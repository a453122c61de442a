#pragma once
// The page's template, style and script (resources/handout/), compiled into the program: the
// build turns each file into a byte array (cmake/EmbedTextFiles.cmake), so a handout is written
// the same way by the CLI and the window, with no file to find at run time.
#include <string_view>

namespace ascope {

/// resources/handout/handout.html, with placeholders for the style, script, title and data.
std::string_view handoutTemplateHtml();
/// resources/handout/handout.css
std::string_view handoutStyle();
/// resources/handout/js/*.js joined in the order js/modules.txt lists
/// (cmake/JoinHandoutScript.cmake)
std::string_view handoutScript();

}  // namespace ascope
