#include "widgets/heatmap_view.h"

#include "widgets/export_menu.h"
#include "widgets/plot_exporter.h"

#include <QMenu>
#include <QTextStream>

#include <cmath>

namespace ascope {
namespace {

constexpr int kMaxLabelChars = 14;

QString elided(const QString& label) {
  return label.size() <= kMaxLabelChars ? label : label.left(kMaxLabelChars - 1) + QChar(0x2026);
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

  connect(this, &ThemedPlot::themeChanged, this, &HeatmapView::applyTheme);
  connect(this, &QCustomPlot::mouseMove, this, &HeatmapView::onMouseMove);
  connect(this, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
  connect(this, &QWidget::customContextMenuRequested, this, &HeatmapView::showContextMenu);
  refreshTheme();  // the axes and colour scale above were created after ThemedPlot themed itself
}

void HeatmapView::setMatrix(const LabeledMatrix& matrix) {
  const bool same_shape = matrix.rows == matrix_.rows && matrix.cols == matrix_.cols;
  matrix_ = matrix;
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
  title_->setText(title);
  title_->setVisible(!title.isEmpty());
  replot(rpQueuedReplot);
}

QString HeatmapView::title() const {
  return title_->text();
}

void HeatmapView::setAxisTitles(const QString& col_title, const QString& row_title) {
  xAxis->setLabel(col_title);
  yAxis->setLabel(row_title);
  row_title_ = row_title.isEmpty() ? QStringLiteral("row") : row_title;
  replot(rpQueuedReplot);
}

void HeatmapView::setColorScaleLabel(const QString& label) {
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

void HeatmapView::resetView() {
  if (matrix_.isValid()) {
    xAxis->setRange(-0.5, matrix_.cols - 0.5);
    yAxis->setRange(-0.5, matrix_.rows - 0.5);
  }
  replot(rpQueuedReplot);
}

void HeatmapView::updateColorRange() {
  auto [lo, hi] = matrix_.finiteRange();
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
  const QFontMetrics fm(theme().font);
  auto fill = [&](QCPAxisTickerText* ticker, const QCPRange& visible, double axis_px, int count,
                  double needed_px, bool columns) {
    const double per_cell = axis_px / std::max(1.0, visible.size());
    const int step = niceStep(needed_px / std::max(1e-6, per_cell));
    QMap<double, QString> ticks;
    for (int i = 0; i < count; i += step)
      ticks.insert(i, elided(columns ? matrix_.colLabel(i) : matrix_.rowLabel(i)));
    if (ticks == ticker->ticks()) return false;
    ticker->setTicks(ticks);
    return true;
  };
  bool changed = false;
  if (!custom_x_ticks_) {
    int widest = 0;
    for (int c = 0; c < matrix_.cols; ++c)
      widest = std::max(widest, fm.horizontalAdvance(elided(matrix_.colLabel(c))));
    const double x_px = std::max(1, rect_->width());
    const double per_cell = x_px / std::max(1.0, xAxis->range().size());
    // Upright labels while every label fits (or they are short numbers, thinned instead);
    // otherwise rotate so long tokens need only a line height each.
    const bool upright =
        widest + 8 <= per_cell || widest <= fm.horizontalAdvance(QStringLiteral("0000"));
    const double rotation = upright ? 0.0 : -90.0;
    if (xAxis->tickLabelRotation() != rotation) {
      xAxis->setTickLabelRotation(rotation);
      changed = true;
    }
    changed |= fill(x_ticker_.data(), xAxis->range(), x_px, matrix_.cols,
                    upright ? widest + 8 : fm.height() + 2, true);
  }
  if (!custom_y_ticks_)
    changed |= fill(y_ticker_.data(), yAxis->range(), std::max(1, rect_->height()), matrix_.rows,
                    fm.height() + 2, false);
  return changed;
}

bool HeatmapView::fitAspect() {
  if (!keep_aspect_ || !matrix_.isValid()) return false;
  const QMargins old = plotLayout()->margins();
  // The space the axis rect would have without our margins (a small padding keeps exports off
  // the image border), and the cell size that fits it.
  constexpr int kPad = 6;
  const double width = rect_->width() + old.left() + old.right() - 2 * kPad;
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

bool HeatmapView::adjustLayout() {
  bool changed = updateTicks();
  changed |= fitAspect();
  return changed;
}

void HeatmapView::applyTheme(const PlotTheme& theme) {
  title_->setFont(theme.title_font);
  title_->setTextColor(theme.foreground);
  rect_->setBackground(QBrush(theme.background));
}

QString HeatmapView::hoverText(const QPoint& pos) const {
  if (!matrix_.isValid() || isEmptyState() || !rect_->rect().contains(pos)) return {};
  double key = 0, value = 0;
  color_map_->pixelsToCoords(pos, key, value);
  const int col = qRound(key);
  const int row = qRound(value);
  if (row < 0 || col < 0 || row >= matrix_.rows || col >= matrix_.cols) return {};
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
  showToolTipAt(event->pos(), hoverText(event->pos()));
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
