#pragma once
// What scripted mode may do with the window: ScriptedRun holds only this, never the window's
// widgets. It starts or opens a run and waits on it (controller, bridge, current run), sets the
// Run dock up, drives the docks' owners it names (Attention, Sample's Try it, Heads' ablation),
// raises a dock by title, reads every dock's report, reaches the windows it opens (inspection,
// comparison), exports, and measures the layout. MainWindowScripting is the window's side.
#include <QJsonObject>
#include <QString>

class QWidget;

namespace ascope {

class AttentionPresenter;
class AttentionVideoActions;
class ComputationPresenter;
class CurrentRun;
class ErrorsPresenter;
class EngineBridge;
class ExportActions;
class HeadsPresenter;
class LessonActions;
class LessonPlayer;
class PresentationControls;
class PretrainedInspectionWindow;
class ReplayActions;
class RunController;
class RunPresenter;
class SamplePresenter;

class ScriptableWindow {
 public:
  virtual ~ScriptableWindow() = default;
  /// The window itself: its size, its title, its screenshot.
  virtual QWidget* widget() const = 0;
  virtual CurrentRun* currentRun() const = 0;
  virtual EngineBridge* bridge() const = 0;
  virtual RunController* controller() const = 0;
  virtual RunPresenter* runPanel() const = 0;
  virtual PresentationControls* presentationControls() const = 0;
  virtual AttentionPresenter* attention() const = 0;
  virtual SamplePresenter* sample() const = 0;
  virtual HeadsPresenter* headAnalysis() const = 0;
  virtual ErrorsPresenter* errorAnalysis() const = 0;
  virtual ComputationPresenter* computation() const = 0;
  virtual ExportActions* exporter() const = 0;
  virtual AttentionVideoActions* videoExporter() const = 0;
  virtual ReplayActions* replay() const = 0;
  virtual PretrainedInspectionWindow* inspectionWindow() const = 0;
  virtual LessonPlayer* lessonPlayer() const = 0;
  virtual LessonActions* lessonActions() const = 0;
  /// Every dock's report, merged.
  virtual QJsonObject dockReport() const = 0;
  /// Shows and raises the docks titled `title`; false when none is.
  virtual bool raiseDock(const QString& title) = 0;
  /// The window as measured on its screen (LayoutReport).
  virtual QJsonObject measureLayout() const = 0;
};

}  // namespace ascope
