#pragma once
// The Run dock's live learning rate: while a run trains or is paused, a new rate is typed and sent
// (Set, or Enter); it replaces the schedule from the next batch on. The box says what was sent
// and, once the engine has used it (applied()), from which step, so a paused run that has not yet
// taken the rate is not mistaken for one that has.
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
  QLineEdit* rateEdit() const { return edit_; }
  QPushButton* setButton() const { return set_; }
  QLabel* statusLabel() const { return status_; }

 Q_SIGNALS:
  void learningRateRequested(double lr);

 private:
  void send();
  void follow(TrainerState state);

  const CurrentRun* run_;
  QLineEdit* edit_ = nullptr;
  QPushButton* set_ = nullptr;
  QLabel* status_ = nullptr;
};

}  // namespace ascope
