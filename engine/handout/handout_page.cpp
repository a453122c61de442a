#include "engine/handout/handout_page.h"

#include <string_view>
#include <vector>

#include "engine/handout/handout_page_resources.h"

namespace ascope {
namespace {

struct Slot {
  std::string_view marker;
  std::string content;
};

}  // namespace

std::string scriptSafeJson(const std::string& json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (char c : json) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

std::string htmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string renderHandoutPage(const std::string& title, const std::string& data_json) {
  // One pass over the template: each marker is replaced where the template has it, and nothing
  // put in (a label of the data, a title) is searched for markers again.
  const std::string_view page = handoutTemplateHtml();
  std::vector<Slot> slots = {{"/*HANDOUT_STYLE*/", std::string(handoutStyle())},
                             {"/*HANDOUT_SCRIPT*/", std::string(handoutScript())},
                             {"HANDOUT_TITLE", htmlEscape(title)},
                             {"HANDOUT_DATA", scriptSafeJson(data_json)}};
  std::string out;
  out.reserve(page.size() + slots[0].content.size() + slots[1].content.size() +
              slots[3].content.size() + 64);
  std::size_t at = 0;
  while (at < page.size()) {
    std::size_t next = std::string_view::npos;
    const Slot* slot = nullptr;
    for (const Slot& s : slots) {
      const std::size_t found = page.find(s.marker, at);
      if (found < next) next = found, slot = &s;
    }
    if (slot == nullptr) break;
    out.append(page.substr(at, next - at));
    out.append(slot->content);
    at = next + slot->marker.size();
  }
  if (at < page.size()) out.append(page.substr(at));
  return out;
}

}  // namespace ascope
