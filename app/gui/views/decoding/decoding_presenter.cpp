#include "app/gui/views/decoding/decoding_presenter.h"

#include <QScrollArea>
#include <QSplitter>

#include <algorithm>

#include "widgets/decoding/beam_tree_view.h"
#include "widgets/decoding/decoding_step_view.h"

namespace ascope {

DecodingPresenter::DecodingPresenter(QWidget* parent) : QObject(parent) {
  // The beam's tree above the steps, each scrolling on its own: a wide beam is taller than the
  // dock, and the steps must stay in view beside it.
  auto* content = new QSplitter(Qt::Vertical, parent);
  split_ = content;
  content->setChildrenCollapsible(false);
  beam_scroll_ = new QScrollArea(content);
  beam_ = new BeamTreeView(beam_scroll_);
  beam_scroll_->setWidget(beam_);
  beam_scroll_->setFrameShape(QFrame::NoFrame);
  beam_scroll_->hide();  // a sentence decoded with a beam shows it
  view_ = new DecodingStepView(content);
  view_->setObjectName(QStringLiteral("decodingPanel"));
  content->addWidget(beam_scroll_);
  content->addWidget(view_);
  content->setStretchFactor(0, 2);
  content->setStretchFactor(1, 3);
  // Tabbed with the positional encoding: scrolls rather than making the column taller.
  scroll_ = new QScrollArea(parent);
  scroll_->setWidget(content);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  connect(beam_, &BeamTreeView::hypothesisChosen, this, &DecodingPresenter::chooseHypothesis);
  connect(view_, &DecodingStepView::stepChanged, beam_, &BeamTreeView::setStep);
}

QWidget* DecodingPresenter::dockWidget() const {
  return scroll_;
}

void DecodingPresenter::showAttention(SharedPlotData data) {
  shown_ = data;
  const bool beam = shown_ && shown_->beam && !shown_->beam->hypotheses.empty();
  beam_->setTree(beam ? shown_->beam : nullptr);
  beam_->adjustSize();
  beam_scroll_->setVisible(beam);
  if (beam) {
    // A third of the dock for the tree, less when it is shorter.
    const int height = split_->height();
    const int tree = std::min(beam_->sizeHint().height() + 4, height / 3);
    split_->setSizes({tree, std::max(0, height - tree)});
  }
  view_->setSnapshot(std::move(data));
  beam_->setStep(view_->step());
}

void DecodingPresenter::chooseHypothesis(int hypothesis) {
  if (!shown_ || !shown_->beam) return;
  const auto& hypotheses = shown_->beam->hypotheses;
  if (hypothesis < 0 || hypothesis >= static_cast<int>(hypotheses.size())) return;
  beam_->setChosen(hypothesis);
  view_->setSnapshot(hypotheses[static_cast<std::size_t>(hypothesis)].attention);
  beam_->setStep(view_->step());
}

void DecodingPresenter::setHead(int layer, int head) {
  view_->setHead(layer, head);
}

void DecodingPresenter::clear() {
  shown_.reset();
  beam_->setTree(nullptr);
  beam_scroll_->hide();
  view_->clear();
}

QList<Exportable*> DecodingPresenter::exportables() const {
  // Only a transcript's steps: an empty figure is no use on a slide.
  if (view_->stepCount() == 0) return {};
  return {view_};
}

void DecodingPresenter::clearRun() {
  clear();
}

void DecodingPresenter::takeNews(const RunNews& news) {
  static_cast<void>(news);  // it shows what the Attention dock shows (showAttention)
}

}  // namespace ascope
