#include "app/gui/views/decoding/decoding_presenter.h"

#include <QScrollArea>

#include "widgets/decoding/decoding_step_view.h"

namespace ascope {

DecodingPresenter::DecodingPresenter(QWidget* parent) : QObject(parent) {
  view_ = new DecodingStepView(parent);
  view_->setObjectName(QStringLiteral("decodingPanel"));
  // Tabbed with the positional encoding: scrolls rather than making the column taller.
  scroll_ = new QScrollArea(parent);
  scroll_->setWidget(view_);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
}

QWidget* DecodingPresenter::dockWidget() const {
  return scroll_;
}

void DecodingPresenter::showAttention(SharedPlotData data) {
  view_->setSnapshot(std::move(data));
}

void DecodingPresenter::setHead(int layer, int head) {
  view_->setHead(layer, head);
}

void DecodingPresenter::clear() {
  view_->clear();
}

QList<Exportable*> DecodingPresenter::exportables() const {
  // Only a transcript's steps: an empty figure is no use on a slide.
  if (view_->stepCount() == 0) return {};
  return {view_};
}

}  // namespace ascope
