#pragma once
// The run's controls in one strip that never scrolls away: Start, Pause, Step and Stop, the
// progress with its ETA and the live learning rate. The window puts it in a fixed toolbar above
// the docks, so the controls stay in reach at any window size down to 1024 × 600 and any font
// zoom while the Run dock's settings scroll. Where the strip is short of room it drops the
// buttons' words (icons and tooltips stay) and shortens the learning rate's caption, and below
// that it puts the learning rate on a second row, instead of hiding anything in an overflow menu.
#include <QList>
#include <QWidget>

class QAction;
class QGridLayout;
class QToolButton;

namespace ascope {

class CurrentRun;
class LiveLearningRateBox;
class RunProgressStrip;

class RunControlBar : public QWidget {
  Q_OBJECT

 public:
  /// `commands`: Start, Pause, Step, Stop (the Run dock's actions, shared with the Run menu).
  RunControlBar(const CurrentRun* run, const QList<QAction*>& commands, QWidget* parent = nullptr);

  /// The button of one of the commands; null for another action.
  QToolButton* button(const QAction* action) const;
  RunProgressStrip* progress() const { return progress_; }
  LiveLearningRateBox* liveLearningRate() const { return learning_rate_; }

  /// 0: every word; 1: icons only and a short caption; 2: as 1, the learning rate on a 2nd row.
  int compactness() const { return compactness_; }

  QSize minimumSizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  /// The least compact arrangement whose width fits `width`.
  void fitTo(int width);
  void arrange(int compactness);
  /// Width the row needs at `compactness` (the learning rate excluded at 2).
  int neededWidth(int compactness) const;

  QList<QToolButton*> buttons_;
  RunProgressStrip* progress_ = nullptr;
  LiveLearningRateBox* learning_rate_ = nullptr;
  QGridLayout* layout_ = nullptr;
  int compactness_ = -1;
};

}  // namespace ascope
