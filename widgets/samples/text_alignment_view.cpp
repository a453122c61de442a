#include "widgets/samples/text_alignment_view.h"

#include "widgets/common/plot_theme.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace ascope {
namespace {

constexpr int kAlignmentMargin = 4;

QColor fillOf(AlignedColumn::Edit edit, const PlotTheme& theme) {
  QColor c;
  switch (edit) {
    case AlignedColumn::Edit::Match:
      return QColor();
    case AlignedColumn::Edit::Substitute:
      c = theme.bad;
      break;
    case AlignedColumn::Edit::Delete:
      c = theme.warning;
      break;
    case AlignedColumn::Edit::Insert:
      c = theme.accent;
      break;
  }
  c.setAlpha(theme.dark ? 120 : 70);
  return c;
}

}  // namespace

TextAlignmentView::TextAlignmentView(QWidget* parent) : QWidget(parent) {
  QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
}

void TextAlignmentView::setAlignment(const AlignmentPrediction& alignment) {
  alignment_ = alignment;
  updateGeometry();
  update();
}

int TextAlignmentView::distance() const {
  return static_cast<int>(
      std::count_if(alignment_.columns.begin(), alignment_.columns.end(),
                    [](const AlignedColumn& c) { return c.edit != AlignedColumn::Edit::Match; }));
}

int TextAlignmentView::cellWidth() const {
  const QFontMetrics fm(font());
  return fm.horizontalAdvance(QStringLiteral("W")) + fm.height() / 2;
}

int TextAlignmentView::columnsPerRow(int width) const {
  const QFontMetrics fm(font());
  const int label =
      fm.horizontalAdvance(alignment_.expected_title.size() > alignment_.answer_title.size()
                               ? alignment_.expected_title
                               : alignment_.answer_title) +
      fm.height();
  return std::max(1, (width - label - 2 * kAlignmentMargin) / cellWidth());
}

QSize TextAlignmentView::sizeHint() const {
  const int columns = std::max<int>(1, static_cast<int>(alignment_.columns.size()));
  const QFontMetrics fm(font());
  const int width = 2 * kAlignmentMargin + 8 * fm.height() + columns * cellWidth();
  return {width, heightForWidth(width)};
}

int TextAlignmentView::heightForWidth(int width) const {
  const QFontMetrics fm(font());
  const int per_row = columnsPerRow(width);
  const int columns = std::max<int>(1, static_cast<int>(alignment_.columns.size()));
  const int blocks = (columns + per_row - 1) / per_row;
  // Each block: the reference row and the answer row; a line of caption below all.
  return 2 * kAlignmentMargin + blocks * (2 * (fm.height() + 6) + fm.height() / 2) + fm.height() +
         4;
}

void TextAlignmentView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  const QFontMetrics fm(font());
  const int cell = cellWidth();
  const int row_height = fm.height() + 6;
  const int per_row = columnsPerRow(width());
  const int label_width =
      fm.horizontalAdvance(alignment_.expected_title.size() > alignment_.answer_title.size()
                               ? alignment_.expected_title
                               : alignment_.answer_title) +
      fm.height();
  int y = kAlignmentMargin;
  const int count = static_cast<int>(alignment_.columns.size());
  for (int start = 0; start < std::max(count, 1); start += per_row) {
    painter.setPen(theme.muted);
    painter.drawText(QRect(kAlignmentMargin, y, label_width, row_height), Qt::AlignVCenter,
                     alignment_.expected_title);
    painter.drawText(QRect(kAlignmentMargin, y + row_height, label_width, row_height),
                     Qt::AlignVCenter, alignment_.answer_title);
    for (int i = start; i < std::min(count, start + per_row); ++i) {
      const AlignedColumn& c = alignment_.columns[static_cast<std::size_t>(i)];
      const int x = kAlignmentMargin + label_width + (i - start) * cell;
      const QColor fill = fillOf(c.edit, theme);
      const QRect top(x, y, cell - 2, row_height - 2);
      const QRect bottom(x, y + row_height, cell - 2, row_height - 2);
      for (const QRect& box : {top, bottom}) {
        if (fill.isValid()) painter.fillRect(box, fill);
        painter.setPen(theme.grid);
        painter.drawRect(box);
      }
      painter.setPen(theme.foreground);
      painter.drawText(top, Qt::AlignCenter,
                       c.reference.isEmpty() ? QStringLiteral("·") : c.reference);
      painter.drawText(bottom, Qt::AlignCenter,
                       c.answer.isEmpty() ? QStringLiteral("·") : c.answer);
    }
    y += 2 * row_height + fm.height() / 2;
  }
  painter.setPen(theme.muted);
  // The key shortens before it is cut: the distance is what a narrow dock must still say.
  const int room = width() - 2 * kAlignmentMargin;
  QString caption =
      tr("edit distance %1 · red: replaced · orange: left out · blue: added").arg(distance());
  if (fm.horizontalAdvance(caption) > room) caption = tr("edit distance %1").arg(distance());
  painter.drawText(QRect(kAlignmentMargin, y, room, fm.height() + 4), Qt::AlignLeft,
                   fm.elidedText(caption, Qt::ElideRight, room));
}

}  // namespace ascope
