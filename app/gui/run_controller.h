#pragma once
// Feeds the panels: from the bridge while a run trains (live), or from a run folder opened for
// inspection (read on a worker thread). Also keeps the window title (task and run folder).
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <optional>

#include "app/gui/gui_batch.h"
#include "app/gui/panels.h"
#include "app/gui/run_reader.h"
#include "engine/train/training_config.h"

namespace ascope {

class EngineBridge;

class RunController : public QObject {
  Q_OBJECT

 public:
  RunController(const Panels& panels, EngineBridge* bridge, QObject* parent = nullptr);
  ~RunController() override;

  /// Clears the panels and starts `config`; returns a message for a person on failure.
  QString startRun(const TrainingConfig& config, bool step_only = false);
  /// Reads `dir` on a worker thread, then shows it (runOpened or openFailed follows).
  void openRun(const QString& dir);
  bool isOpening() const { return open_watcher_.isRunning(); }

  /// The run folder the panels show ("" before one is known).
  QString runDir() const { return run_dir_; }
  /// "vit", "imdb" or "translate" of the shown run ("" before any).
  QString task() const { return task_; }
  QString title() const;

 Q_SIGNALS:
  void titleChanged(const QString& title);
  void runOpened(const QString& dir);
  void openFailed(const QString& message);
  /// A short note for the status bar.
  void message(const QString& text);

 private:
  struct OpenResult {
    std::optional<OpenedRun> run;
    QString error;
  };
  void connectBridge();
  void clearPanels();
  void showSample(const SampleView& sample);
  void onRunFolder(const QString& dir);
  void onFailure(const QString& text);
  void onOpened();
  void setRun(const QString& task, const QString& dir);

  Panels panels_;
  EngineBridge* bridge_;
  QString run_dir_;
  QString task_;
  int image_size_ = 0;
  QFutureWatcher<OpenResult> open_watcher_;
};

}  // namespace ascope
