#pragma once
// The main window only composes: it creates each dock's owner (its presenter), puts what that
// owner shows in a dock, builds the menus from actions and connects the engine bridge. Feeding
// the docks is RunController's job, exporting ExportActions', the dock arrangement DockLayout's.
#include <QJsonObject>
#include <QMainWindow>
#include <vector>

namespace ascope {

class LogPresenter;
class AttentionPresenter;
class AttentionVideoActions;
class CurrentRun;
class ComputationPresenter;
class CurvesPresenter;
class DecodingPresenter;
class DockLayout;
class EncodingPresenter;
class EngineBridge;
class ErrorsPresenter;
class ExportActions;
class HeadsPresenter;
class LessonActions;
class LessonPlayer;
class LongRunCheck;
class PresentationControls;
class RunKeyFilter;
class RememberedSettings;
class PretrainedInspectionWindow;
class ReplayActions;
class RunNewsReader;
class RunControlBar;
class RunController;
class RunPresenter;
class SamplePresenter;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Each dock's owner, which the window's parts and tests ask what the dock shows.
  RunPresenter* runPanel() const { return run_presenter_; }
  /// The run toolbar: commands, progress, live learning rate.
  RunControlBar* runControls() const { return controls_; }
  CurvesPresenter* curves() const { return curves_; }
  AttentionPresenter* attention() const { return attention_; }
  EncodingPresenter* encoding() const { return encoding_; }
  SamplePresenter* sample() const { return sample_; }
  DecodingPresenter* decoding() const { return decoding_; }
  ComputationPresenter* computation() const { return computation_; }
  /// The Heads and Ablation docks.
  HeadsPresenter* headAnalysis() const { return heads_; }
  LogPresenter* log() const { return log_; }
  /// The shown run's task, settings, folder and state (their one owner in the GUI).
  CurrentRun* currentRun() const { return run_; }
  EngineBridge* bridge() const { return bridge_; }
  RunController* controller() const { return controller_; }
  DockLayout* dockLayout() const { return docks_; }
  ExportActions* exporter() const { return exporter_; }
  /// File → Export attention video… (and --export-video).
  AttentionVideoActions* videoExporter() const { return video_; }
  /// Presentation mode, dock full screen, font zoom and high contrast (View menu).
  PresentationControls* presentationControls() const { return presentation_; }
  /// Run → Evaluate on… and the Errors dock.
  ErrorsPresenter* errorAnalysis() const { return errors_; }
  /// The Run dock's settings and the last run across restarts; null until setInteractive().
  RememberedSettings* rememberedSettings() const { return remembered_; }
  /// Continue, bookmark and compare runs (File, Run and Timeline menus).
  ReplayActions* replay() const { return replay_; }
  /// File → Inspect pretrained model…
  PretrainedInspectionWindow* inspectionWindow() const { return inspection_; }
  /// The lesson played (Lesson menu, Page Down and Page Up) and its menu's actions.
  LessonPlayer* lessonPlayer() const { return lesson_player_; }
  LessonActions* lessonActions() const { return lesson_actions_; }

  /// What every dock shows, merged from each owner's report() (scripted mode's "panels").
  QJsonObject dockReport() const;
  /// Shows and raises the docks titled `title`; false when none is.
  bool raiseDock(const QString& title);

  /// For a person at the screen: restores the layout saved at the last close (and saves it at
  /// this close) and reports problems in message boxes. Off by default, so tests and scripted
  /// runs see the default layout, never block on a dialog and leave the user's settings alone.
  /// Returns whether a saved layout was restored.
  bool setInteractive();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  /// Each dock's owner, which creates the dock's widgets.
  void createPresenters();
  void createDocks();
  /// The run's controls above the docks, and its state in the status bar.
  void createRunToolBar();
  /// The menu bar, a function per menu.
  void createMenus();
  void createFileMenu(ReplayActions* replay);
  void createRunMenu(ReplayActions* replay);
  /// Window-wide keys for the timeline, yielded to the attention panel and the Decoding dock
  /// while they have the focus.
  void createTimelineMenu(ReplayActions* replay);
  void createViewMenu();
  /// The Lesson menu, its strip above the docks and the clicker's keys.
  void createLessonMenu();
  void openRunInteractively();
  /// "Get dataset…" for `task`; the fetched folder becomes the Run panel's data.
  void openGetDataset(const QString& task);
  /// Lists datasets fetched earlier (by the GUI or the CLI) in the Run panel's data choices.
  void offerDownloadedDatasets();
  void showMessage(const QString& text);
  /// At close, for a person at the screen: their own layout (not the projector's), their settings.
  void saveSession();

  RunPresenter* run_presenter_ = nullptr;
  RunControlBar* controls_ = nullptr;
  CurvesPresenter* curves_ = nullptr;
  AttentionPresenter* attention_ = nullptr;
  EncodingPresenter* encoding_ = nullptr;
  SamplePresenter* sample_ = nullptr;
  DecodingPresenter* decoding_ = nullptr;
  ComputationPresenter* computation_ = nullptr;
  HeadsPresenter* heads_ = nullptr;
  CurrentRun* run_ = nullptr;
  EngineBridge* bridge_ = nullptr;
  RunController* controller_ = nullptr;
  DockLayout* docks_ = nullptr;
  ExportActions* exporter_ = nullptr;
  AttentionVideoActions* video_ = nullptr;
  ErrorsPresenter* errors_ = nullptr;
  LogPresenter* log_ = nullptr;
  PresentationControls* presentation_ = nullptr;
  RunKeyFilter* keys_ = nullptr;  ///< Space for the run whatever has the focus; Esc leaves a field
  RememberedSettings* remembered_ = nullptr;
  LongRunCheck* long_run_check_ = nullptr;
  ReplayActions* replay_ = nullptr;
  PretrainedInspectionWindow* inspection_ = nullptr;
  LessonPlayer* lesson_player_ = nullptr;
  LessonActions* lesson_actions_ = nullptr;
  /// Every dock's owner, in the order a run's news reaches them.
  std::vector<RunNewsReader*> readers_;
  bool interactive_ = false;
  bool closing_ = false;  ///< close was asked for while training; closes when the run ends
};

}  // namespace ascope
