#include "engine/download/server_text.h"

#include "engine/core/printable_text.h"

namespace ascope {

std::string printableServerText(std::string_view text) {
  return printableText(text, kMaxServerTextBytes);
}

bool isPrintableServerText(std::string_view text) {
  return isPrintableText(text, kMaxServerTextBytes);
}

}  // namespace ascope
