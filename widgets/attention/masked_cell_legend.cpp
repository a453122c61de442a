#include "widgets/attention/masked_cell_legend.h"

namespace ascope {
namespace {

constexpr int kGap = 5;

}  // namespace

MaskedCellLegend::MaskedCellLegend(QCustomPlot* plot) : QCPLayoutElement(plot) {
  setMargins(QMargins(4, 2, 4, 2));
}

void MaskedCellLegend::setText(const QString& text) {
  text_ = text;
}

void MaskedCellLegend::setFont(const QFont& font) {
  font_ = font;
}

void MaskedCellLegend::setColors(const QColor& swatch, const QColor& text) {
  swatch_ = swatch;
  text_color_ = text;
}

void MaskedCellLegend::setShown(bool shown) {
  shown_ = shown;
}

QSize MaskedCellLegend::contentSize() const {
  if (!shown_ || text_.isEmpty()) return {0, 0};
  const QFontMetrics fm(font_);
  const int swatch = fm.height() - 2;
  return {swatch + kGap + fm.horizontalAdvance(text_), fm.height()};
}

QSize MaskedCellLegend::minimumOuterSizeHint() const {
  const QSize content = contentSize();
  if (content.isEmpty()) return {0, 0};
  return content +
         QSize(margins().left() + margins().right(), margins().top() + margins().bottom());
}

QSize MaskedCellLegend::maximumOuterSizeHint() const {
  const QSize content = contentSize();
  // Hidden, it must not limit its row or column either: a maximum of 0 × 0 made the colour
  // scale's column 0 px wide (the scale was drawn over the cells) and the title's row 0 px high
  // whenever no cell was masked.
  if (content.isEmpty()) return {QWIDGETSIZE_MAX, QWIDGETSIZE_MAX};
  // Any width (the column may be wider for the colour scale), only the height of one line.
  return {QWIDGETSIZE_MAX, content.height() + margins().top() + margins().bottom()};
}

void MaskedCellLegend::draw(QCPPainter* painter) {
  if (!shown_ || text_.isEmpty() || mRect.isEmpty()) return;
  const QFontMetrics fm(font_);
  const int swatch = fm.height() - 2;
  const QRect box(mRect.left(), mRect.center().y() - swatch / 2, swatch, swatch);
  painter->setPen(QPen(text_color_, 1));
  painter->setBrush(swatch_);
  painter->drawRect(box);
  painter->setFont(font_);
  // Measured on the device drawn on (an export's may be wider than the screen's): where the whole
  // text does not fit, its words before the bracket ("masked"), else elided, never cut off
  // mid-word ("masked (causa").
  const QRect room(box.right() + kGap, mRect.top(), mRect.width() - swatch - kGap, mRect.height());
  const QFontMetrics drawn(font_, painter->device());
  QString text = text_;
  if (drawn.horizontalAdvance(text) > room.width()) {
    const QString brief = text_.section(QStringLiteral(" ("), 0, 0);
    text = drawn.horizontalAdvance(brief) <= room.width()
               ? brief
               : drawn.elidedText(brief, Qt::ElideRight, room.width());
  }
  painter->drawText(room, Qt::AlignLeft | Qt::AlignVCenter, text);
}

}  // namespace ascope
