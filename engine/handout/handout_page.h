#pragma once
// The handout as one HTML file: the template of resources/handout with its style, script, title
// and data written into it. Nothing in it refers to anything outside the file; its
// Content-Security-Policy (default-src 'none') forbids the browser to fetch anything at all.
#include <string>

namespace ascope {

/// The page titled `title`, carrying `data_json` (HandoutPacker::document) for its script.
std::string renderHandoutPage(const std::string& title, const std::string& data_json);

/// `json` safe inside a <script> element: every '<' (only ever inside a JSON string) written as
/// \u003c, so no label can close the element ("</script>") or open a comment.
std::string scriptSafeJson(const std::string& json);

/// `text` for HTML text and attribute values: & < > " ' as character references.
std::string htmlEscape(const std::string& text);

}  // namespace ascope
