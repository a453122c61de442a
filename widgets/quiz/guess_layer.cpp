#include "widgets/quiz/guess_layer.h"

#include "widgets/common/heatmap_view.h"

namespace ascope {

namespace {

/// An outline that reads on every colour of the attention gradients, light or dark theme.
const QColor kGuessColor(0xff, 0x2d, 0x95);

QCPItemRect* cellRect(HeatmapView* view, double left, double top, double right, double bottom) {
  auto* rect = new QCPItemRect(view);
  view->placeInCells(rect);
  rect->topLeft->setCoords(left, top);
  rect->bottomRight->setCoords(right, bottom);
  return rect;
}

}  // namespace

GuessLayer::GuessLayer(HeatmapView* view) : view_(view) {}

void GuessLayer::setCover(bool covered, int query) {
  covered_ = covered;
  query_ = query;
  redraw();
}

void GuessLayer::setGuess(const AttentionGuess& guess) {
  guess_ = guess;
  redraw();
}

void GuessLayer::setCursor(QPoint cell) {
  cursor_ = cell;
  redraw();
}

void GuessLayer::removeItems() {
  for (QCPAbstractItem* item : items_) view_->removeItem(item);
  items_.clear();
}

void GuessLayer::redraw() {
  removeItems();
  const LabeledMatrix& m = view_->matrix();
  if (!m.isValid()) {
    view_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  const PlotTheme& theme = view_->theme();
  if (covered_) {
    const double top = query_ < 0 ? -0.5 : query_ - 0.5;
    const double bottom = query_ < 0 ? m.rows - 0.5 : query_ + 0.5;
    // Opaque first, then hatched: nothing of the weights beneath may show through.
    QCPItemRect* base = cellRect(view_, -0.5, top, m.cols - 0.5, bottom);
    base->setPen(Qt::NoPen);
    base->setBrush(theme.background);
    QCPItemRect* hatch = cellRect(view_, -0.5, top, m.cols - 0.5, bottom);
    hatch->setPen(QPen(theme.muted, 1));
    hatch->setBrush(QBrush(theme.muted, Qt::BDiagPattern));
    items_ << base << hatch;
    if (query_ < 0) {
      auto* mark = new QCPItemText(view_);
      view_->placeInCells(mark);
      mark->position->setCoords((m.cols - 1) / 2.0, (m.rows - 1) / 2.0);
      mark->setText(QStringLiteral("?"));
      QFont font = theme.title_font;
      font.setPointSizeF(font.pointSizeF() * 3);
      mark->setFont(font);
      mark->setColor(theme.foreground);
      mark->setBrush(theme.background);
      mark->setPadding(QMargins(8, 0, 8, 0));
      items_ << mark;
    }
  }
  const double pen_width = std::max(2.0, theme.font.pointSizeF() / 4.0);
  for (auto row = guess_.all().cbegin(); row != guess_.all().cend(); ++row) {
    for (auto key = row->cbegin(); key != row->cend(); ++key) {
      const double r = row.key(), c = key.key();
      QCPItemRect* outline = cellRect(view_, c - 0.45, r - 0.45, c + 0.45, r + 0.45);
      outline->setPen(QPen(kGuessColor, pen_width));
      outline->setBrush(Qt::NoBrush);
      items_ << outline;
      if (key.value() > 1) {
        auto* votes = new QCPItemText(view_);
        view_->placeInCells(votes);
        votes->position->setCoords(c, r);
        votes->setText(QString::number(key.value()));
        votes->setFont(theme.font);
        votes->setColor(Qt::white);
        votes->setBrush(kGuessColor);
        items_ << votes;
      }
    }
  }
  if (cursor_.x() >= 0 && cursor_.y() >= 0 && cursor_.x() < m.cols && cursor_.y() < m.rows) {
    QCPItemRect* cursor =
        cellRect(view_, cursor_.x() - 0.5, cursor_.y() - 0.5, cursor_.x() + 0.5, cursor_.y() + 0.5);
    cursor->setPen(QPen(theme.foreground, pen_width, Qt::DashLine));
    cursor->setBrush(Qt::NoBrush);
    items_ << cursor;
  }
  view_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace ascope
