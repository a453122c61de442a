#include "app/gui/views/sample/sample_presenter.h"

#include <QVBoxLayout>
#include <QWidget>

#include "app/gui/views/sample/sample_conversion.h"
#include "app/gui/views/sample/try_it_box.h"
#include "widgets/samples/sample_panel.h"

namespace ascope {

SamplePresenter::SamplePresenter(const CurrentRun* run, QWidget* parent) : QObject(parent) {
  widget_ = new QWidget(parent);
  panel_ = new SamplePanel(widget_);
  panel_->setObjectName(QStringLiteral("samplePanel"));
  try_it_ = new TryItBox(run, widget_);
  auto* layout = new QVBoxLayout(widget_);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(panel_, 1);
  layout->addWidget(try_it_);
}

void SamplePresenter::setLive(const SamplePrediction& sample, bool following_live) {
  live_ = sample;
  if (following_live && !step_) showStep(live_);
}

void SamplePresenter::showLive(const std::optional<SamplePrediction>& probe) {
  showStep(probe ? probe : live_);
}

void SamplePresenter::showStep(const std::optional<SamplePrediction>& sample) {
  if (!sample) return;
  step_ = sample;
  if (!asked_) show(*sample);
}

void SamplePresenter::showAsked(const SamplePrediction& sample) {
  asked_ = true;
  show(sample);
}

void SamplePresenter::leaveAsked() {
  asked_ = false;
  if (step_) show(*step_);
}

void SamplePresenter::clear() {
  live_.reset();
  step_.reset();
  asked_ = false;
  panel_->clear();
}

void SamplePresenter::show(const SamplePrediction& sample) {
  showSamplePrediction(*panel_, sample);
}

QJsonObject SamplePresenter::report() const {
  return {{QStringLiteral("sample_shown"), panel_->mode() != SamplePanel::Mode::Empty}};
}

QList<Exportable*> SamplePresenter::exportables() const {
  return {panel_};
}

void SamplePresenter::clearRun() {
  clear();
}

void SamplePresenter::takeNews(const RunNews& news) {
  if (news.opened) {
    if (news.opened->newest_step >= 0) showStep(news.sample);
  } else if (news.sample) {
    setLive(*news.sample, news.timeline_follows_live);
  }
}

}  // namespace ascope
