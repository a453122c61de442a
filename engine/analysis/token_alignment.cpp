#include "engine/analysis/token_alignment.h"

#include <algorithm>
#include <cstddef>

namespace ascope {

int TokenAlignment::firstToken(int position, bool side_b) const {
  if (position < prefix) return position;
  const int span = side_b ? b_changed : a_changed;
  if (changed() && position == prefix) return prefix;
  // A suffix position: past the prefix, the span and the merged position (when there is one).
  return prefix + span + (position - prefix - (changed() ? 1 : 0));
}

int TokenAlignment::tokenCount(int position, bool side_b) const {
  if (changed() && position == prefix) return side_b ? b_changed : a_changed;
  return 1;
}

TokenAlignment alignTokens(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const std::size_t shorter = std::min(a.size(), b.size());
  std::size_t prefix = 0;
  while (prefix < shorter && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (prefix + suffix < shorter && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  TokenAlignment t;
  t.prefix = static_cast<int>(prefix);
  t.suffix = static_cast<int>(suffix);
  t.a_changed = static_cast<int>(a.size() - prefix - suffix);
  t.b_changed = static_cast<int>(b.size() - prefix - suffix);
  return t;
}

TokenAlignment alignChangedToken(int count, int position) {
  TokenAlignment t;
  t.prefix = position;
  t.a_changed = t.b_changed = 1;
  t.suffix = count - position - 1;
  return t;
}

}  // namespace ascope
