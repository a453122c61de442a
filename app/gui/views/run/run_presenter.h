#pragma once
// The Run dock: choose a task (any registered one), its data and a preset, edit the hyperparameters
// (validated as you type by TrainingConfig::validate(); the named field turns red and Start is
// disabled), pick the device, and read where the run stands in full (RunProgressView). The four
// commands (start, pause, step, stop) are QActions: the run toolbar (RunControlBar), the Run menu
// and the shortcuts share them, so the settings may scroll while the controls stay in reach.
#include <QFutureWatcher>
#include <QWidget>

#include <vector>

#include "app/gui/views/news/run_news_reader.h"
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/task_descriptor.h"
#include "engine/vocabulary/training_config.h"
#include "engine/vocabulary/training_device.h"

class QAction;
class QComboBox;
class QLabel;
class QPushButton;

namespace ascope {

class CurrentRun;
class HyperparameterForm;
class PretrainedModelChoice;
class ProbeSamplePicker;
class RunProgressView;

class RunPresenter : public QWidget, public RunNewsReader {
  Q_OBJECT

 public:
  /// Follows `run`'s state (buttons, progress); offers every registered task.
  RunPresenter(const CurrentRun* run, bool cuda_available, QWidget* parent = nullptr);
  ~RunPresenter() override;

  QAction* startAction() const { return start_; }
  QAction* pauseAction() const { return pause_; }
  QAction* stepAction() const { return step_; }
  QAction* stopAction() const { return stop_; }

  /// What each device is (trainingDevices(): name, memory, LibTorch and CUDA versions, or why
  /// there is no GPU): in the Device box's entries and its tooltip.
  void describeDevices(const std::vector<TrainingDevice>& devices);

  /// The settings as they stand (may be invalid; see validationMessage()).
  TrainingConfig currentConfig() const;
  /// "" when currentConfig() can be trained, else a message naming the bad field.
  QString validationMessage() const { return message_; }

  /// A registered task id, and one of its presets (fills the fields).
  void setTask(const QString& task);
  void setPreset(const QString& preset);
  /// "builtin" or a file or folder path.
  void setDataSource(const QString& data);
  /// Offers `path` (e.g. a downloaded dataset) in the data list under `label`, without choosing it.
  void addDataChoice(const QString& label, const QString& path);
  /// Shows the settings of an opened run, read-only, until "Train again" is pressed.
  void showRunConfig(const TrainingConfig& config, const QString& run_path);
  bool isReadOnly() const { return read_only_; }

  void setProgress(const StepMetrics& progress, std::int64_t batch_size);
  void setEpoch(const EpochSummary& report, const std::string& task);
  void setTest(const TestEvaluation& test, const std::string& task);
  // RunNewsReader: a run starting, progress, epochs, the test, the run's state, an opened run's
  // settings.
  void clearRun() override;
  void takeNews(const RunNews& news) override;

  HyperparameterForm* form() const { return form_; }
  RunProgressView* progressView() const { return progress_; }
  QComboBox* taskBox() const { return task_box_; }
  QComboBox* presetBox() const { return preset_box_; }
  QComboBox* deviceBox() const { return device_box_; }
  PretrainedModelChoice* modelChoice() const { return model_box_; }
  ProbeSamplePicker* probePicker() const { return probe_picker_; }
  QLabel* messageLabel() const { return message_label_; }

 Q_SIGNALS:
  /// Start pressed with valid settings; `step_only`: start paused and run one batch.
  void startRequested(const TrainingConfig& config, bool step_only);
  void pauseRequested();
  void resumeRequested();
  void stepRequested();
  void stopRequested();
  /// "Get dataset…" chosen in the data list while `task` was selected.
  void getDatasetRequested(const QString& task);
  /// Task or settings changed (the window title follows the task).
  void configEdited();

 private:
  void buildActions();
  /// Writes the settings into `config`; returns a message when a field cannot be read.
  QString buildConfig(TrainingConfig& config) const;
  void loadPreset();
  /// The chosen task's presets in the preset list, keeping the chosen name where it exists.
  void listPresets();
  void onRunState(TrainerState state, const QString& reason);
  void chooseData(int index);
  void revalidate();
  void updateActions();
  /// Before fields are disabled: moves the focus from them to the panel itself.
  void keepFocus();
  void onPauseTriggered();
  void onStepTriggered();
  /// A pretrained model chosen: the task's fine-tune preset, and the model's own sizes read
  /// (off the GUI thread) into the form, read-only; the task's own model: its default preset.
  void followModel();
  void onPretrainedShapeRead();
  /// Where the sizes of the pretrained model `folder` are read from: the opened run's own copy
  /// of its config.json, else `folder`.
  QString shapeSource(const QString& folder) const;

  TrainingConfig base_;  // preset (or opened run) the form's values are written onto
  QString message_;
  bool read_only_ = false;
  QString run_path_;  // the opened run shown read-only ("" otherwise)
  const CurrentRun* run_;

  QComboBox* task_box_ = nullptr;
  QComboBox* data_box_ = nullptr;
  QComboBox* preset_box_ = nullptr;
  QComboBox* device_box_ = nullptr;
  PretrainedModelChoice* model_box_ = nullptr;
  ProbeSamplePicker* probe_picker_ = nullptr;
  HyperparameterForm* form_ = nullptr;
  QLabel* message_label_ = nullptr;
  QLabel* read_only_label_ = nullptr;
  QPushButton* edit_button_ = nullptr;
  RunProgressView* progress_ = nullptr;
  QAction* start_ = nullptr;
  QAction* pause_ = nullptr;
  QAction* step_ = nullptr;
  QAction* stop_ = nullptr;
  QFutureWatcher<Expected<ModelShape>> shape_watcher_;
  QString shape_folder_;  ///< the folder whose shape is (being) read
};

}  // namespace ascope
