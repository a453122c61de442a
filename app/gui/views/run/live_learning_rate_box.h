#pragma once
// The run toolbar's live learning rate: while a run trains or is paused, a new rate is typed and
// sent (Set, or Enter); it replaces the schedule from the next batch on. The box says what was
// sent and, once the engine has used it (applied()), from which step, so a paused run that has
// not yet taken the rate is not mistaken for one that has: in the status bar (statusChanged) and
// in its tooltip, since a toolbar has no room for a sentence.
#include <QWidget>

#include <optional>

#include "engine/vocabulary/events.h"

class QLabel;
class QLineEdit;
class QPushButton;

namespace ascope {

class CurrentRun;

class LiveLearningRateBox : public QWidget {
  Q_OBJECT

 public:
  explicit LiveLearningRateBox(const CurrentRun* run, QWidget* parent = nullptr);

  /// The rate typed in "0.0005" or "5e-4": a number in (0, 10) like the lr setting, else nullopt.
  static std::optional<double> parseRate(const QString& text);

  /// The engine took a rate at change.step.
  void applied(const LearningRateChange& change);
  /// The rate the newest step trained with, shown in the empty field ("now 0.003") so that a
  /// lecturer sees the schedule's rate before typing another.
  void showCurrentRate(double lr);
  QLineEdit* rateEdit() const { return edit_; }
  QPushButton* setButton() const { return set_; }
  /// What the box last said ("5e-4 sent: …", "5e-4 since step 41 …", a refusal); "" at first.
  QString statusText() const { return status_; }
  /// "Live learning rate" beside the field, or "lr" where the toolbar is short of room.
  void setCompact(bool compact);

 Q_SIGNALS:
  void learningRateRequested(double lr);
  void statusChanged(const QString& text);

 private:
  void send();
  void follow(TrainerState state);
  void say(const QString& text);

  const CurrentRun* run_;
  QLineEdit* edit_ = nullptr;
  QPushButton* set_ = nullptr;
  QLabel* caption_ = nullptr;
  QString status_;
  QString base_tool_tip_;  ///< what the field is for, under the newest status
};

}  // namespace ascope
