#include "widgets/decoding/attention_row_strip.h"

#include <QResizeEvent>

#include <algorithm>
#include <cmath>

namespace ascope {

AttentionRowStrip::AttentionRowStrip(const QString& empty_hint, QWidget* parent)
    : DecodingPlot(parent), empty_hint_(empty_hint) {
  for (QCPAxis* axis : {xAxis, yAxis}) {
    axis->setVisible(false);
    axis->grid()->setVisible(false);
  }
  // Token labels are items below the cells (so masked ones can be greyed), hence fixed margins.
  axisRect()->setAutoMargins(QCP::msNone);
  axisRect()->setMinimumSize(50, 1);  // a strip is one cell high, less than the default
  map_ = new QCPColorMap(xAxis, yAxis);
  map_->setGradient(PlotTheme::sequentialGradient());
  // Weights are probabilities: a fixed 0..1 scale keeps colours comparable from step to step.
  map_->setDataRange(QCPRange(0.0, 1.0));
  map_->setInterpolate(false);
  map_->setTightBoundary(false);
  yAxis->setRange(-0.5, 0.5);
  // Cell colours come from the theme; redraw when it follows a palette change.
  connect(this, &ThemedPlot::themeChanged, this, [this] {
    if (has_row_) render();
  });
}

void AttentionRowStrip::showRow(const QString& title, const AttentionRow& row, int query) {
  title_ = title;
  row_ = row;
  query_ = query;
  has_row_ = true;
  render();
}

void AttentionRowStrip::resizeEvent(QResizeEvent* event) {
  // Label rotation, cell text and the title's elision depend on the width. The height is ours
  // (setFixedHeight); reacting to it would loop.
  if (has_row_ && event->oldSize().width() != event->size().width()) render();
  DecodingPlot::resizeEvent(event);
}

void AttentionRowStrip::render() {
  clearItems();
  const PlotTheme& theme = this->theme();
  const QFontMetrics fm(theme.font);
  const QFontMetrics title_fm(theme.title_font);
  // Elided rather than cut off in a narrow dock.
  setTitle(title_fm.elidedText(title_, Qt::ElideRight, std::max(60, width() - 2 * kSideMargin)));

  const int n = static_cast<int>(row_.values.size());
  const int cell_h = qRound(fm.height() * 1.9);
  const int title_h = titleHeight();
  if (n == 0) {
    map_->data()->clear();
    setEmptyHint(empty_hint_);
    setEmptyState(true);
    setFixedHeight(title_h + cell_h + fm.height() + 8);
    replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  setEmptyState(false);

  // Labels go diagonal, then vertical, when the cells get narrower than the longest token.
  QStringList labels;
  int label_w = 0;
  for (const QString& label : row_.labels) {
    labels << shortToken(label);
    label_w = std::max(label_w, fm.horizontalAdvance(labels.last()));
  }
  const double cell_px = std::max(40, width() - 2 * kSideMargin) / double(n);
  double rotation = 0;
  int label_margin = fm.height() + 6;
  int left_margin = kSideMargin;
  if (label_w + 6 > cell_px) {
    rotation = cell_px >= fm.height() * 1.5 ? -45.0 : -90.0;
    const double a = -rotation * M_PI / 180.0;
    label_margin =
        static_cast<int>(std::ceil(label_w * std::sin(a) + fm.height() * std::cos(a))) + 8;
    // A slanted label hangs left of its cell; the first one must not run off the plot.
    const double overhang = fm.horizontalAdvance(labels.first()) * std::cos(a) +
                            fm.height() * std::sin(a) / 2 - cell_px / 2;
    left_margin = std::max(kSideMargin, static_cast<int>(std::ceil(overhang)) + 4);
  }
  axisRect()->setMargins(QMargins(left_margin, 2, kSideMargin, label_margin));
  setFixedHeight(title_h + 2 + cell_h + label_margin);
  xAxis->setRange(-0.5, n - 0.5);

  QCPColorGradient gradient = map_->gradient();
  const bool show_values = cell_px >= fm.horizontalAdvance(QStringLiteral("0.00")) + 6;
  map_->data()->setSize(n, 1);
  map_->data()->setRange(n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.5, 0.5), QCPRange(-0.5, 0.5));
  for (int c = 0; c < n; ++c) {
    const float v = row_.values[static_cast<size_t>(c)];
    // A query only ever saw the keys up to itself; later keys did not exist yet, so they are
    // masked (whatever the causal flag or the stored weight says), not shown as small weights.
    const bool masked = (query_ >= 0 && c > query_) || !std::isfinite(v);
    const bool query = c == query_;
    map_->data()->setCell(c, 0, masked ? std::nan("") : double(v));
    if (masked) {
      auto* rect = new QCPItemRect(this);
      rect->setObjectName(QStringLiteral("maskedCell"));
      rect->topLeft->setCoords(c - 0.5, 0.5);
      rect->bottomRight->setCoords(c + 0.5, -0.5);
      rect->setPen(QPen(theme.grid));
      rect->setBrush(QBrush(theme.grid, Qt::BDiagPattern));
    } else if (show_values) {
      auto* text = new QCPItemText(this);
      text->position->setCoords(c, 0);
      text->setText(QString::number(v, 'f', 2));
      text->setFont(theme.font);
      text->setColor(textOn(QColor::fromRgb(gradient.color(v, map_->dataRange()))));
    }
    if (query) {
      auto* rect = new QCPItemRect(this);
      rect->setObjectName(QStringLiteral("queryCell"));
      rect->topLeft->setCoords(c - 0.5, 0.5);
      rect->bottomRight->setCoords(c + 0.5, -0.5);
      rect->setPen(QPen(theme.foreground, 2));
      rect->setBrush(Qt::NoBrush);
    }
    if (c + 1 < n) {
      // A gap in the surface colour tells neighbouring cells of similar weight apart.
      auto* gap = new QCPItemLine(this);
      gap->start->setCoords(c + 0.5, -0.5);
      gap->end->setCoords(c + 0.5, 0.5);
      gap->setPen(QPen(theme.background, 2));
    }
    auto* label = new QCPItemText(this);
    label->setClipToAxisRect(false);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(c, 1.0);
    label->setText(labels[c]);
    QFont label_font = theme.font;
    label_font.setBold(query);
    label->setFont(label_font);
    label->setColor(masked ? theme.muted : theme.foreground);
    label->setRotation(rotation);
    if (rotation == 0) {
      label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
      label->setPadding(QMargins(0, 3, 0, 0));
    } else {
      label->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
      label->setPadding(QMargins(0, 0, 4, 0));
    }
  }
  replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace ascope
