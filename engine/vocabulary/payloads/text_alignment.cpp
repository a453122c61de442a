#include "engine/vocabulary/payloads/text_alignment.h"

#include <algorithm>
#include <cstddef>

namespace ascope {
namespace {

/// The UTF-8 characters of `text`, each as its bytes (a stray byte stands alone).
std::vector<std::string> characters(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = lead < 0x80         ? 1
                         : lead >> 5 == 0x6  ? 2
                         : lead >> 4 == 0xe  ? 3
                         : lead >> 3 == 0x1e ? 4
                                             : 1;
    length = std::min(length, text.size() - i);
    out.push_back(text.substr(i, length));
    i += length;
  }
  return out;
}

}  // namespace

int TextAlignment::distance() const {
  return static_cast<int>(std::count_if(columns.begin(), columns.end(),
                                        [](const Column& c) { return c.edit != Edit::kMatch; }));
}

TextAlignment TextAlignment::align(const std::string& reference, const std::string& answer) {
  const std::vector<std::string> a = characters(reference);
  const std::vector<std::string> b = characters(answer);
  const std::size_t n = a.size(), m = b.size();
  // cost[i][j]: edits turning a[0..i) into b[0..j); walked back from the end.
  std::vector<std::vector<int>> cost(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) cost[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= m; ++j) cost[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      cost[i][j] = std::min({cost[i - 1][j] + 1, cost[i][j - 1] + 1,
                             cost[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
  }
  TextAlignment out;
  std::size_t i = n, j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && cost[i][j] == cost[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)) {
      out.columns.push_back(
          {a[i - 1] == b[j - 1] ? Edit::kMatch : Edit::kSubstitute, a[i - 1], b[j - 1]});
      --i, --j;
    } else if (i > 0 && cost[i][j] == cost[i - 1][j] + 1) {
      out.columns.push_back({Edit::kDelete, a[i - 1], ""});
      --i;
    } else {
      out.columns.push_back({Edit::kInsert, "", b[j - 1]});
      --j;
    }
  }
  std::reverse(out.columns.begin(), out.columns.end());
  return out;
}

}  // namespace ascope
