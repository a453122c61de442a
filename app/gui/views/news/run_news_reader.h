#pragma once
// The one interface through which a run reaches the docks: each dock's owner implements it, and
// RunController hands every piece of news to every owner in its list, whatever the run's source
// (RunNews: live, opened, followed). docs/ARCHITECTURE.md, "Adding a dock".
#include "app/gui/views/news/run_news.h"

namespace ascope {

class RunNewsReader {
 public:
  virtual ~RunNewsReader() = default;
  /// A new run is about to be shown (started, opened): forget the last one.
  virtual void clearRun() = 0;
  /// Shows what of `news` this dock shows.
  virtual void takeNews(const RunNews& news) = 0;
  /// The timeline shows `step` (-1: nothing): a dock with a step cursor moves it.
  virtual void followStep(long long step) { static_cast<void>(step); }
};

}  // namespace ascope
