#pragma once
// The one interface of a dock's owner (a *Presenter in app/gui/views/<dock>/): a run reaches the
// docks through it — RunController hands every piece of news to every owner in its list, whatever
// the run's source (RunNews: live, opened, followed) — and what each dock shows and exports is
// asked through it: scripted mode's report and "Export all panels" walk the same list.
// docs/ARCHITECTURE.md, "Adding a dock".
#include <QJsonObject>
#include <QList>

#include "app/gui/views/news/run_news.h"
#include "widgets/common/exportable.h"

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
  /// What the dock shows, as figures (merged into scripted mode's --report "panels"; the keys
  /// are the dock's own).
  virtual QJsonObject report() const { return {}; }
  /// The dock's figures as shown, for "Export all panels" (each saves itself as PNG/SVG/PDF and
  /// its data as CSV); none by default. The attention and positional-encoding docks export none
  /// here: their figure bundles write every head and view, not the one shown.
  virtual QList<Exportable*> exportables() const { return {}; }
};

}  // namespace ascope
