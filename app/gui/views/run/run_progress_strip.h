#pragma once
// The run's progress in one line for the run toolbar: a state badge ("Training", "Paused",
// "Finished", "Failed", coloured) and a progress bar reading "42 % · step 120 / 632 · ETA 1:02".
// It shows what RunProgressView (the owner of the figures) summarises; the reason for a state (a
// failure message) is the badge's tooltip, since a toolbar has no room for a paragraph.
#include <QWidget>

#include "app/gui/views/run/run_summary.h"

class QLabel;
class QProgressBar;

namespace ascope {

class RunProgressStrip : public QWidget {
  Q_OBJECT

 public:
  explicit RunProgressStrip(QWidget* parent = nullptr);

  void setSummary(const RunSummary& summary);
  const RunSummary& summary() const { return summary_; }

  /// Room for every figure of a long run; the minimum keeps the percentage and the ETA.
  QSize sizeHint() const override;

  QLabel* stateBadge() const { return badge_; }
  QProgressBar* bar() const { return bar_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  /// The bar's text: every figure where it fits, else the percentage and the ETA.
  void fitBarText();

  RunSummary summary_;
  QLabel* badge_ = nullptr;
  QProgressBar* bar_ = nullptr;
};

}  // namespace ascope
