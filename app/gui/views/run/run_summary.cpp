#include "app/gui/views/run/run_summary.h"

#include <QCoreApplication>

#include "app/gui/views/run/run_progress_view.h"

namespace ascope {
namespace {

QString trSummary(const char* text) {
  return QCoreApplication::translate("RunSummary", text);
}

}  // namespace

QString RunSummary::stateText() const {
  return RunProgressView::stateName(state);
}

QString RunSummary::statusLine() const {
  QStringList parts{stateText()};
  if (has_progress) {
    parts << trSummary("epoch %1").arg(epoch)
          << trSummary("step %1 / %2").arg(step).arg(total_steps);
    if (!isFinalState(state) && state != TrainerState::kIdle) parts << trSummary("ETA %1").arg(eta);
  }
  return parts.join(QStringLiteral(" · "));
}

QString RunSummary::barFormat() const {
  if (!has_progress) return state == TrainerState::kIdle ? trSummary("no run yet") : QString();
  QString text = trSummary("%p % · step %1 / %2").arg(step).arg(total_steps);
  if (!isFinalState(state) && state != TrainerState::kIdle) text += trSummary(" · ETA %1").arg(eta);
  return text;
}

}  // namespace ascope
