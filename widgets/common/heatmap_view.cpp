#include "widgets/common/heatmap_view.h"

#include "widgets/common/export_menu.h"
#include "widgets/common/plot_exporter.h"

#include <QApplication>
#include <QMenu>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <utility>

namespace ascope {
namespace {

constexpr int kMaxLabelChars = 14;
constexpr int kMinCellsWidth = 40;  // narrower, a map of 20 tokens has 2-pixel cells
constexpr int kMinBarWidth = 6;     // a thinner colour bar no longer reads as colours

QString elidedWord(const QString& text, int chars) {
  return text.size() <= chars ? text : text.left(std::max(1, chars - 1)) + QChar(0x2026);
}

QString elided(const QString& label) {
  if (label.size() <= kMaxLabelChars) return label;
  // A decoder row "fed → predicts": what it predicts is the point, so the fed token gives way
  // first ("scatola → gia…" told nothing; "scat… → giallo" does).
  const QString arrow = QStringLiteral(" → ");
  const int at = label.indexOf(arrow);
  if (at > 0) {
    const QString predicts = elidedWord(label.mid(at + arrow.size()), kMaxLabelChars - 5);
    const int room = kMaxLabelChars - static_cast<int>(predicts.size() + arrow.size());
    return elidedWord(label.left(at), std::max(2, room)) + arrow + predicts;
  }
  return elidedWord(label, kMaxLabelChars);
}

// Distance between neighbouring dense labels in `font`: a descender may reach into the next
// label's leading, which stays readable and fits a typical 40-token sentence at 7 pt in half a
// 1280-pixel panel.
double denseLabelPitch(const QFont& font) {
  return QFontMetricsF(font).ascent() + 1.0;
}

// Smallest "nice" step (1, 2, 5, 10, 20, 50, ...) that is at least `minimum`, so thinned
// numeric labels read 0, 5, 10 rather than 0, 3, 6.
int niceStep(double minimum) {
  if (minimum <= 1.0) return 1;
  for (int decade = 1;; decade *= 10) {
    for (int m : {1, 2, 5}) {
      if (m * decade >= minimum) return m * decade;
    }
    if (decade > 100000000) return decade;
  }
}

}  // namespace

HeatmapView::HeatmapView(QWidget* parent) : ThemedPlot(parent) {
  plotLayout()->clear();
  rect_ = new QCPAxisRect(this);
  color_scale_ = new QCPColorScale(this);
  title_ = new QCPTextElement(this, QString(), theme().title_font);
  title_->setMargins(QMargins(2, 2, 2, 4));
  // Square cells can make the title's column narrower than the title (a narrow dock, a zoomed
  // font); it may then reach into the empty margins beside the cells instead of being cut.
  title_->setTextFlags(Qt::AlignCenter | Qt::TextDontClip);
  // Nor may the title's width widen the cells' column: a long title at a zoomed font would take
  // the colour scale's width and the scale would be drawn over the cells. (A width of 0 would
  // mean "unset" to the layout, which then asks the text for its width.)
  title_->setMinimumSize(1, 0);
  plotLayout()->addElement(0, 0, title_);
  plotLayout()->addElement(1, 0, rect_);
  plotLayout()->addElement(1, 1, color_scale_);
  plotLayout()->setColumnStretchFactor(1, 0.001);
  plotLayout()->setRowSpacing(2);
  plotLayout()->setAutoMargins(QCP::msNone);  // fitAspect() owns the outer margins
  plotLayout()->setMargins(QMargins(6, 6, 6, 6));
  auto* margins = new QCPMarginGroup(this);
  rect_->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
  color_scale_->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
  color_scale_->setBarWidth(14);
  color_scale_->setRangeDrag(false);
  color_scale_->setRangeZoom(false);

  QCPAxis* x = rect_->axis(QCPAxis::atBottom);
  QCPAxis* y = rect_->axis(QCPAxis::atLeft);
  x_ticker_ = QSharedPointer<QCPAxisTickerText>::create();
  y_ticker_ = QSharedPointer<QCPAxisTickerText>::create();
  x->setTicker(x_ticker_);
  y->setTicker(y_ticker_);
  for (QCPAxis* axis : {x, y}) {
    axis->setSubTicks(false);
    axis->setTickLength(0, 4);
    axis->grid()->setVisible(false);
  }
  y->setRangeReversed(true);  // row 0 on top, like a matrix printout
  xAxis = x;
  yAxis = y;

  color_map_ = new QCPColorMap(x, y);
  color_map_->setInterpolate(false);
  color_map_->setTightBoundary(false);
  color_map_->setColorScale(color_scale_);
  color_map_->setGradient(PlotTheme::sequentialGradient());

  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  setContextMenuPolicy(Qt::CustomContextMenu);
  setEmptyHint(tr("No data yet"));
  setEmptyState(true);
  base_minimum_ = minimumSize();
  wanted_minimum_ = base_minimum_;

  connect(this, &ThemedPlot::themeChanged, this, &HeatmapView::applyTheme);
  connect(this, &QCustomPlot::mouseMove, this, &HeatmapView::onMouseMove);
  connect(this, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
  connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) press_pos_ = event->pos();
  });
  connect(this, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
    int row = 0, col = 0;
    if (event->button() != Qt::LeftButton ||
        (event->pos() - press_pos_).manhattanLength() > QApplication::startDragDistance() ||
        !cellAt(event->pos(), &row, &col))
      return;
    Q_EMIT cellClicked(row, col);
  });
  connect(this, &QWidget::customContextMenuRequested, this, &HeatmapView::showContextMenu);
  refreshTheme();  // the axes and colour scale above were created after ThemedPlot themed itself
}

void HeatmapView::setMatrix(LabeledMatrix matrix) {
  const bool same_shape = matrix.rows == matrix_.rows && matrix.cols == matrix_.cols;
  matrix_ = std::move(matrix);
  if (!matrix_.isValid()) {
    clear();
    return;
  }
  QCPColorMapData* data = color_map_->data();
  if (!same_shape) {
    data->setSize(matrix_.cols, matrix_.rows);
    data->setRange(cellCenterRange(matrix_.cols), cellCenterRange(matrix_.rows));
  }
  for (int r = 0; r < matrix_.rows; ++r)
    for (int c = 0; c < matrix_.cols; ++c) data->setCell(c, r, matrix_.at(r, c));
  updateColorRange();
  setEmptyState(false);
  if (!same_shape) resetView();
  replot(rpQueuedReplot);
}

void HeatmapView::clear() {
  matrix_ = LabeledMatrix();
  color_map_->data()->clear();
  setEmptyState(true);
  replot(rpQueuedReplot);
}

void HeatmapView::setTitle(const QString& title) {
  full_title_ = title;
  title_->setText(title);
  title_->setVisible(!title.isEmpty());
  replot(rpQueuedReplot);
}

QString HeatmapView::title() const {
  return full_title_;
}

void HeatmapView::setAxisTitles(const QString& col_title, const QString& row_title) {
  full_axis_titles_[0] = col_title;
  full_axis_titles_[1] = row_title;
  xAxis->setLabel(col_title);
  yAxis->setLabel(row_title);
  row_title_ = row_title.isEmpty() ? QStringLiteral("row") : row_title;
  replot(rpQueuedReplot);
}

void HeatmapView::setColorScaleLabel(const QString& label) {
  scale_label_ = label;
  label_dropped_at_width_ = -1;
  color_scale_->setLabel(label);
  replot(rpQueuedReplot);
}

void HeatmapView::setGradientKind(GradientKind kind) {
  gradient_kind_ = kind;
  color_map_->setGradient(kind == GradientKind::Sequential ? PlotTheme::sequentialGradient()
                                                           : PlotTheme::divergingGradient());
  replot(rpQueuedReplot);
}

void HeatmapView::setRangeMode(RangeMode mode) {
  range_mode_ = mode;
  updateColorRange();
  replot(rpQueuedReplot);
}

void HeatmapView::setFixedRange(double lower, double upper) {
  fixed_range_ = QCPRange(lower, upper);
  setRangeMode(RangeMode::Fixed);
}

QCPRange HeatmapView::dataRange() const {
  return color_scale_->dataRange();
}

void HeatmapView::setTooltipFormatter(TooltipFormatter formatter) {
  tooltip_ = std::move(formatter);
}

void HeatmapView::setCustomTicks(Qt::Orientation axis, const QVector<double>& positions,
                                 const QVector<QString>& labels) {
  auto& ticker = axis == Qt::Horizontal ? x_ticker_ : y_ticker_;
  (axis == Qt::Horizontal ? custom_x_ticks_ : custom_y_ticks_) = true;
  ticker->setTicks(positions, labels);
  replot(rpQueuedReplot);
}

void HeatmapView::setKeepAspect(bool keep) {
  keep_aspect_ = keep;
  if (!keep) plotLayout()->setMargins(QMargins(6, 6, 6, 6));
  replot(rpQueuedReplot);
}

void HeatmapView::setDenseLabels(int max_cells, double min_point_size) {
  dense_max_cells_ = max_cells;
  dense_min_point_size_ = min_point_size;
  replot(rpQueuedReplot);
}

void HeatmapView::setGrowsForLabels(bool grows) {
  if (grows == grows_for_labels_) return;
  grows_for_labels_ = grows;
  if (!grows) {
    wanted_minimum_ = base_minimum_;
    setMinimumSize(base_minimum_);
  }
  replot(rpQueuedReplot);
}

bool HeatmapView::hasDenseLabels() const {
  return dense_max_cells_ > 0 && matrix_.isValid() && matrix_.rows <= dense_max_cells_ &&
         matrix_.cols <= dense_max_cells_;
}

void HeatmapView::resetView() {
  if (matrix_.isValid()) {
    xAxis->setRange(-0.5, matrix_.cols - 0.5);
    yAxis->setRange(-0.5, matrix_.rows - 0.5);
  }
  replot(rpQueuedReplot);
}

void HeatmapView::updateColorRange() {
  // A fixed range needs no pass over the values (a 512-token head has 262,144 of them).
  auto [lo, hi] =
      range_mode_ == RangeMode::Fixed ? std::pair<float, float>(0.0f, 0.0f) : matrix_.finiteRange();
  QCPRange range;
  switch (range_mode_) {
    case RangeMode::MinMax:
      range = QCPRange(lo, hi);
      break;
    case RangeMode::ZeroToMax:
      range = QCPRange(std::min(0.0f, lo), hi);
      break;
    case RangeMode::Symmetric: {
      const double m = std::max(std::abs(lo), std::abs(hi));
      range = QCPRange(-m, m);
      break;
    }
    case RangeMode::Fixed:
      range = fixed_range_;
      break;
  }
  if (!(range.size() > 0)) range = QCPRange(range.lower - 0.5, range.lower + 0.5);
  color_map_->setDataRange(range);
}

bool HeatmapView::updateTicks() {
  if (!matrix_.isValid()) return false;
  const bool dense = hasDenseLabels();
  auto fill = [&](QCPAxisTickerText* ticker, double per_cell, int count, double needed_px,
                  bool columns) {
    // Dense labels all fit (the font shrank) or the view grows until they do; else thin them.
    const bool all = dense && (grows_for_labels_ || per_cell + 0.5 >= needed_px);
    const int step = all ? 1 : niceStep(needed_px / std::max(1e-6, per_cell));
    QMap<double, QString> ticks;
    for (int i = 0; i < count; i += step)
      ticks.insert(i, elided(columns ? matrix_.colLabel(i) : matrix_.rowLabel(i)));
    if (ticks == ticker->ticks()) return false;
    ticker->setTicks(ticks);
    return true;
  };
  auto setFont = [](QCPAxis* axis, const QFont& font) {
    if (axis->tickLabelFont() == font) return false;
    axis->setTickLabelFont(font);
    axis->setSelectedTickLabelFont(font);
    return true;
  };
  bool changed = false;
  if (!custom_x_ticks_) {
    const double per_cell = std::max(1, rect_->width()) / std::max(1.0, xAxis->range().size());
    const QFont font = tickFont(per_cell);
    changed |= setFont(xAxis, font);
    const QFontMetrics fm(font);
    int widest = 0;
    for (int c = 0; c < matrix_.cols; ++c)
      widest = std::max(widest, fm.horizontalAdvance(elided(matrix_.colLabel(c))));
    // Upright labels while every label fits (or they are short numbers, thinned instead);
    // otherwise rotate so long tokens need only a line height each.
    const bool fits = widest + 8 <= per_cell;
    const bool upright = fits || (!dense && widest <= fm.horizontalAdvance(QStringLiteral("0000")));
    const double rotation = upright ? 0.0 : -90.0;
    if (xAxis->tickLabelRotation() != rotation) {
      xAxis->setTickLabelRotation(rotation);
      changed = true;
    }
    changed |= fill(x_ticker_.data(), per_cell, matrix_.cols,
                    upright ? widest + 8 : fm.height() + 2, true);
  }
  if (!custom_y_ticks_) {
    const double per_cell = std::max(1, rect_->height()) / std::max(1.0, yAxis->range().size());
    const QFont font = tickFont(per_cell);
    changed |= setFont(yAxis, font);
    changed |=
        fill(y_ticker_.data(), per_cell, matrix_.rows, QFontMetrics(font).height() + 2, false);
  }
  return changed;
}

QFont HeatmapView::tickFont(double pitch) const {
  QFont font = theme().font;
  const double base = font.pointSizeF();
  if (!hasDenseLabels() || base <= 0) return font;
  const double height = denseLabelPitch(font);
  if (height <= pitch) return font;
  // Line height scales with the point size; whole half points keep layout passes from
  // alternating between two nearly equal sizes.
  const double fitted = std::floor(2.0 * base * pitch / height) / 2.0;
  font.setPointSizeF(std::clamp(fitted, std::min(dense_min_point_size_, base), base));
  return font;
}

void HeatmapView::updateMinimumSize() {
  // Exports lay the plot out at another size; the widget's own size is not theirs to change.
  if (viewport() != rect()) return;
  QSize wanted = base_minimum_;
  if (rect_->width() > 0 && color_scale_->visible()) {
    // At least as wide as the cells' own minimum, the axes around them (tick labels measured
    // since: long token labels) and the whole colour scale side by side: squeezed below it, the
    // colour scale was drawn over the cells. The height is left to the dock, so a
    // zoomed font does not push the dock's saved height.
    const int axes = rect_->outerRect().width() - rect_->width();
    wanted.setWidth(std::max(wanted.width(), 2 * kPad + axes + kMinCellsWidth +
                                                 plotLayout()->columnSpacing() +
                                                 color_scale_->minimumOuterSizeHint().width()));
  }
  if (grows_for_labels_ && hasDenseLabels() && rect_->width() > 0 && rect_->height() > 0) {
    QFont smallest = theme().font;
    if (smallest.pointSizeF() > 0)
      smallest.setPointSizeF(std::min(dense_min_point_size_, smallest.pointSizeF()));
    const double cell = denseLabelPitch(smallest);
    // Everything around the cells (title, tick labels, colour scale), without the margins that
    // only centre square cells.
    const QMargins m = plotLayout()->margins();
    const int around_w = width() - rect_->width() - (m.left() + m.right() - 2 * kPad);
    const int around_h = height() - rect_->height() - (m.top() + m.bottom() - 2 * kPad);
    wanted = wanted.expandedTo(
        QSize(static_cast<int>(std::ceil(xAxis->range().size() * cell)) + around_w,
              static_cast<int>(std::ceil(yAxis->range().size() * cell)) + around_h));
  }
  if (std::abs(wanted.width() - wanted_minimum_.width()) +
          std::abs(wanted.height() - wanted_minimum_.height()) <=
      2)
    return;
  wanted_minimum_ = wanted;
  // Not during the replot that is running: a resize now would not be drawn.
  QMetaObject::invokeMethod(
      this, [this] { setMinimumSize(wanted_minimum_); }, Qt::QueuedConnection);
}

bool HeatmapView::fitAspect() {
  if (!keep_aspect_ || !matrix_.isValid()) return false;
  const QMargins old = plotLayout()->margins();
  // The space the axis rect would have without our margins, and the cell size that fits it.
  // A colour scale the last pass left narrower than its minimum (tick labels measured since)
  // gets it back from the cells, else its label is cut at the edge.
  const double width =
      rect_->width() + old.left() + old.right() - 2 * kPad - widthShortfall(color_scale_);
  const double height = rect_->height() + old.top() + old.bottom() - 2 * kPad;
  const double cols = std::max(1e-6, xAxis->range().size());
  const double rows = std::max(1e-6, yAxis->range().size());
  const double cell = std::min(width / cols, height / rows);
  const int extra_w = std::max(0, static_cast<int>(width - cell * cols));
  const int extra_h = std::max(0, static_cast<int>(height - cell * rows));
  const QMargins margins(kPad + extra_w / 2, kPad + extra_h / 2, kPad + extra_w - extra_w / 2,
                         kPad + extra_h - extra_h / 2);
  if (std::abs(margins.left() - old.left()) + std::abs(margins.top() - old.top()) +
          std::abs(margins.right() - old.right()) + std::abs(margins.bottom() - old.bottom()) <=
      2)
    return false;
  plotLayout()->setMargins(margins);
  return true;
}

bool HeatmapView::fitScaleLabel() {
  if (scale_label_.isEmpty()) return false;
  const int short_by = widthShortfall(color_scale_);
  if (label_dropped_at_width_ < 0) {
    if (short_by <= 0) return false;
    label_dropped_at_width_ = width();
    bar_width_ = color_scale_->barWidth();
    color_scale_->setLabel(QString());
    return true;
  }
  if (short_by > 0 && color_scale_->barWidth() > kMinBarWidth) {
    // Still short without its label: a thinner bar, the ticks keep their room.
    color_scale_->setBarWidth(std::max(kMinBarWidth, color_scale_->barWidth() - short_by));
    return true;
  }
  // Back once the widget has gained the label's line and its padding, so the two states never
  // alternate at one width.
  const int label_room = 2 * QFontMetrics(color_scale_->axis()->labelFont()).height();
  if (width() < label_dropped_at_width_ + label_room) return false;
  label_dropped_at_width_ = -1;
  color_scale_->setBarWidth(bar_width_);
  color_scale_->setLabel(scale_label_);
  return true;
}

bool HeatmapView::fitAxisTitles() {
  // An axis title longer than its axis ran past the cells into the plot title and the tick
  // labels (a small enlarged head at 1280 × 720): each is elided to its axis's length, which
  // the elision itself does not change.
  bool changed = false;
  const std::pair<QCPAxis*, int> axes[] = {{xAxis, rect_->width()}, {yAxis, rect_->height()}};
  for (std::size_t i = 0; i < 2; ++i) {
    QCPAxis* axis = axes[i].first;
    const QString shown =
        QFontMetrics(axis->labelFont())
            .elidedText(full_axis_titles_[i], Qt::ElideRight, std::max(1, axes[i].second));
    if (shown == axis->label()) continue;
    axis->setLabel(shown);
    changed = true;
  }
  return changed;
}

bool HeatmapView::adjustLayout() {
  bool changed = fitScaleLabel();
  changed |= fitAxisTitles();
  changed |= fitTitle(title_, full_title_,
                      color_scale_->outerRect().width() + plotLayout()->columnSpacing());
  changed |= updateTicks();
  changed |= fitAspect();
  if (!changed) updateMinimumSize();
  return changed;
}

void HeatmapView::applyTheme(const PlotTheme& theme) {
  title_->setFont(theme.title_font);
  title_->setTextColor(theme.foreground);
  rect_->setBackground(QBrush(theme.background));
}

bool HeatmapView::cellAt(const QPoint& pos, int* row, int* col) const {
  if (!matrix_.isValid() || isEmptyState() || !rect_->rect().contains(pos)) return false;
  double key = 0, value = 0;
  color_map_->pixelsToCoords(pos, key, value);
  const int c = qRound(key);
  const int r = qRound(value);
  if (r < 0 || c < 0 || r >= matrix_.rows || c >= matrix_.cols) return false;
  *row = r;
  *col = c;
  return true;
}

QString HeatmapView::hoverText(const QPoint& pos) const {
  int row = 0, col = 0;
  if (!cellAt(pos, &row, &col)) return {};
  const float v = matrix_.at(row, col);
  if (std::isnan(v)) return {};
  if (tooltip_) return tooltip_(row, col, v);
  return QStringLiteral("<b>%1</b> → <b>%2</b>: %3")
      .arg(matrix_.rowLabel(row).toHtmlEscaped(), matrix_.colLabel(col).toHtmlEscaped(),
           QString::number(v, 'g', 4));
}

QCPRange HeatmapView::cellCenterRange(int count) {
  return count > 1 ? QCPRange(0, count - 1) : QCPRange(-0.5, 0.5);
}

QMap<double, QString> HeatmapView::tickLabels(Qt::Orientation axis) const {
  return (axis == Qt::Horizontal ? x_ticker_ : y_ticker_)->ticks();
}

void HeatmapView::onMouseMove(QMouseEvent* event) {
  if (event->buttons() != Qt::NoButton) {
    showToolTipAt(event->pos(), QString());
    return;
  }
  showToolTipAt(event->pos(), toolTipAt(event->pos()));
}

void HeatmapView::placeInCells(QCPAbstractItem* item) const {
  item->setClipAxisRect(rect_);
  for (QCPItemPosition* position : item->positions()) {
    position->setAxisRect(rect_);
    position->setAxes(rect_->axis(QCPAxis::atBottom), rect_->axis(QCPAxis::atLeft));
    position->setType(QCPItemPosition::ptPlotCoords);
  }
}

QString HeatmapView::toolTipAt(const QPoint& pos) const {
  return hoverText(pos);
}

void HeatmapView::addContextActions(QMenu* menu) {
  menu->addAction(tr("Reset view"), this, &HeatmapView::resetView);
}

void HeatmapView::showContextMenu(const QPoint& pos) {
  QMenu menu(this);
  addContextActions(&menu);
  menu.addSeparator();
  ExportMenu::addActions(&menu, this, this);
  menu.exec(mapToGlobal(pos));
}

ExportResult HeatmapView::exportImage(const QString& path, ImageFormat format,
                                      const ExportSize& size) {
  return PlotExporter::save(this, path, format, size);
}

ExportResult HeatmapView::exportCsv(const QString& path) const {
  QStringList header{row_title_};
  for (int c = 0; c < matrix_.cols; ++c) header << matrix_.colLabel(c);
  return PlotExporter::writeCsv(path, header, [this](QTextStream& out) {
    for (int r = 0; r < matrix_.rows; ++r) {
      out << PlotExporter::csvField(matrix_.rowLabel(r));
      for (int c = 0; c < matrix_.cols; ++c)
        out << ',' << QString::number(matrix_.at(r, c), 'g', 7);
      out << '\n';
    }
  });
}

}  // namespace ascope
