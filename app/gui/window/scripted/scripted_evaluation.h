#pragma once
// Scripted mode's --evaluate SPLIT: the Errors dock scores the shown run on --data's split, as
// Run → Evaluate on… would, and says what it found (accuracy, the calibration error) when done.
#include <QObject>
#include <QString>

namespace ascope {

class ErrorsPresenter;

class ScriptedEvaluation : public QObject {
  Q_OBJECT

 public:
  ScriptedEvaluation(ErrorsPresenter* errors, QObject* parent = nullptr);

  /// Starts scoring `split` ("all": every sample) of `data`; false (with `*error`) when the dock
  /// cannot start (no run shown, one already running).
  bool start(const QString& data, const QString& split, QString* error);

 Q_SIGNALS:
  /// The evaluation ended: `ok` with a line for a person, or why not.
  void finished(bool ok, const QString& text);

 private:
  ErrorsPresenter* errors_;
};

}  // namespace ascope
