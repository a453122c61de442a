#include "app/gui/window/scripted/main_window_scripting.h"

#include "app/gui/window/main/main_window.h"
#include "app/gui/window/scripted/layout_report.h"

namespace ascope {

QWidget* MainWindowScripting::widget() const {
  return window_;
}
CurrentRun* MainWindowScripting::currentRun() const {
  return window_->currentRun();
}
EngineBridge* MainWindowScripting::bridge() const {
  return window_->bridge();
}
RunController* MainWindowScripting::controller() const {
  return window_->controller();
}
RunPresenter* MainWindowScripting::runPanel() const {
  return window_->runPanel();
}
PresentationControls* MainWindowScripting::presentationControls() const {
  return window_->presentationControls();
}
AttentionPresenter* MainWindowScripting::attention() const {
  return window_->attention();
}
SamplePresenter* MainWindowScripting::sample() const {
  return window_->sample();
}
ComputationPresenter* MainWindowScripting::computation() const {
  return window_->computation();
}

HeadsPresenter* MainWindowScripting::headAnalysis() const {
  return window_->headAnalysis();
}

ErrorsPresenter* MainWindowScripting::errorAnalysis() const {
  return window_->errorAnalysis();
}
ExportActions* MainWindowScripting::exporter() const {
  return window_->exporter();
}
AttentionVideoActions* MainWindowScripting::videoExporter() const {
  return window_->videoExporter();
}
ReplayActions* MainWindowScripting::replay() const {
  return window_->replay();
}
PretrainedInspectionWindow* MainWindowScripting::inspectionWindow() const {
  return window_->inspectionWindow();
}
LessonPlayer* MainWindowScripting::lessonPlayer() const {
  return window_->lessonPlayer();
}
LessonActions* MainWindowScripting::lessonActions() const {
  return window_->lessonActions();
}
QJsonObject MainWindowScripting::dockReport() const {
  return window_->dockReport();
}
bool MainWindowScripting::raiseDock(const QString& title) {
  return window_->raiseDock(title);
}
QJsonObject MainWindowScripting::measureLayout() const {
  return LayoutReport::measure(*window_);
}

}  // namespace ascope
