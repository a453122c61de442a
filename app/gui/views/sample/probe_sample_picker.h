#pragma once
// The Run dock's "Probe samples…" button: opens ProbeSampleDialog for the settings as they stand.
// Before a run the checked samples go into the form's probe field (the probe set of the next
// run); during a run the chosen sample is asked for (probeSampleRequested), which the window
// sends to the trainer as a command.
#include <QPushButton>

#include <functional>

#include "engine/vocabulary/training_config.h"

class QLineEdit;

namespace ascope {

class CurrentRun;
class ProbeSampleDialog;

class ProbeSamplePicker : public QPushButton {
  Q_OBJECT

 public:
  /// `config` gives the settings to browse; `probes` is the form's probe field.
  ProbeSamplePicker(const CurrentRun* run, std::function<TrainingConfig()> config,
                    QLineEdit* probes, QWidget* parent = nullptr);

  /// Opens the dialog (non-modal) and returns it; it deletes itself when closed.
  ProbeSampleDialog* openDialog();

 Q_SIGNALS:
  /// During a run: `index` replaces the probe set's first sample.
  void probeSampleRequested(int index);

 private:
  bool liveRun() const;

  const CurrentRun* run_;
  std::function<TrainingConfig()> config_;
  QLineEdit* probes_;
};

}  // namespace ascope
