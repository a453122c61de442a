#pragma once
// Choosing the probe set by looking at the validation samples: their text or image and true
// label, listed as the engine reads them (on a worker thread: building the task reads the data).
// Before a run the checked samples become the probe set; during a run one chosen sample replaces
// the set's first, by a command to the trainer.
#include <QDialog>
#include <QFutureWatcher>

#include <vector>

#include "engine/inference/validation_samples.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

class QDialogButtonBox;
class QLabel;
class QListWidget;

namespace ascope {

class ProbeSampleDialog : public QDialog {
  Q_OBJECT

 public:
  /// Samples listed at most; the probe indices of a run may go further (they wrap around).
  static constexpr int kListed = 200;

  /// `config` says which task and data; its probe_samples are checked. `single`: one sample (a
  /// live run, where it replaces the probe set's first).
  ProbeSampleDialog(const TrainingConfig& config, bool single, QWidget* parent = nullptr);
  ~ProbeSampleDialog() override;

  /// The checked (or, with `single`, the selected) sample indices, ascending.
  std::vector<int> chosenIndices() const;
  QListWidget* list() const { return list_; }
  QLabel* statusLabel() const { return status_; }
  bool isLoading() const { return watcher_.isRunning(); }

 Q_SIGNALS:
  /// The samples are listed (or the status says why not).
  void loaded();

 private:
  void onLoaded();

  TrainingConfig config_;
  bool single_;
  QListWidget* list_ = nullptr;
  QLabel* status_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
  QFutureWatcher<Expected<ValidationSamples>> watcher_;
};

}  // namespace ascope
