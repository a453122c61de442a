#pragma once
// A dock owner that shows nothing and keeps what a run told it: which source each piece of news
// came from and the steps in it, for tests of the one news path (RunController::addReader).
#include <vector>

#include "app/gui/views/news/run_news_reader.h"

namespace ascope::test {

class NewsRecorder : public RunNewsReader {
 public:
  struct Piece {
    RunNews::Source source;
    std::size_t steps = 0;
    std::size_t learning_rate_changes = 0;
    bool opened = false;
  };
  void clearRun() override { ++clears; }
  void takeNews(const RunNews& news) override {
    pieces.push_back({news.source, news.steps.size(), news.learning_rate_changes.size(),
                      news.opened.has_value()});
  }
  void followStep(long long step) override { last_step = step; }

  /// Pieces from `source`, and the steps they brought.
  std::size_t count(RunNews::Source source) const {
    std::size_t n = 0;
    for (const Piece& p : pieces) n += p.source == source ? 1 : 0;
    return n;
  }
  std::size_t steps(RunNews::Source source) const {
    std::size_t n = 0;
    for (const Piece& p : pieces) n += p.source == source ? p.steps : 0;
    return n;
  }

  std::vector<Piece> pieces;
  int clears = 0;
  long long last_step = -2;
};

}  // namespace ascope::test
