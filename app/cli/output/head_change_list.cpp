#include "app/cli/output/head_change_list.h"

#include <algorithm>
#include <cstdio>

namespace ascope::cli {

std::string headChangeList(const HeadChangeRanking& ranking, std::size_t most) {
  const std::size_t shown = std::min(most, ranking.heads.size());
  std::string out = "heads that changed most (" + std::to_string(shown) + " of " +
                    std::to_string(ranking.heads.size()) +
                    "; change: the query rows' mean total-variation distance, 0 to 1):\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const HeadChange& head = ranking.heads[i];
    char figures[96];
    std::snprintf(figures, sizeof figures, "  change %.3f", head.change);
    out += "  " + head.group + " · layer " + std::to_string(head.layer) + " · head " +
           std::to_string(head.head) + figures;
    if (head.most_changed_row >= 0) {
      std::snprintf(figures, sizeof figures, " (%.3f)", head.most_changed_distance);
      out += "  most at query \"" + head.most_changed_query + "\"" + figures;
    }
    out += "\n";
  }
  return out;
}

}  // namespace ascope::cli
