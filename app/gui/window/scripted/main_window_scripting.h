#pragma once
// The main window as scripted mode sees it (ScriptableWindow): each call goes to the window's own
// accessor, the layout to LayoutReport.
#include "app/gui/window/scripted/scriptable_window.h"

namespace ascope {

class MainWindow;

class MainWindowScripting : public ScriptableWindow {
 public:
  explicit MainWindowScripting(MainWindow* window) : window_(window) {}

  QWidget* widget() const override;
  CurrentRun* currentRun() const override;
  EngineBridge* bridge() const override;
  RunController* controller() const override;
  RunPresenter* runPanel() const override;
  PresentationControls* presentationControls() const override;
  AttentionPresenter* attention() const override;
  SamplePresenter* sample() const override;
  HeadsPresenter* headAnalysis() const override;
  ErrorsPresenter* errorAnalysis() const override;
  ComputationPresenter* computation() const override;
  ExportActions* exporter() const override;
  AttentionVideoActions* videoExporter() const override;
  ReplayActions* replay() const override;
  PretrainedInspectionWindow* inspectionWindow() const override;
  LessonPlayer* lessonPlayer() const override;
  LessonActions* lessonActions() const override;
  QJsonObject dockReport() const override;
  bool raiseDock(const QString& title) override;
  QJsonObject measureLayout() const override;

 private:
  MainWindow* window_;
};

}  // namespace ascope
