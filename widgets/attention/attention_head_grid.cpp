#include "widgets/attention/attention_head_grid.h"

#include "widgets/attention/masked_cell_legend.h"
#include "widgets/common/heatmap_view.h"

#include <QTextDocument>

#include <climits>
#include <cmath>

namespace ascope {
namespace {

// Key/value range that puts `count` weights, pooled `pool` to a drawn cell, on their own
// coordinates 0..count-1: drawn cell j covers weights j*pool .. j*pool+pool-1.
QCPRange pooledCellRange(int count, int pool) {
  const int cells = (count + pool - 1) / pool;
  if (cells <= 1) return QCPRange(-0.5, pool - 0.5);  // one cell spans the whole range
  return QCPRange((pool - 1) / 2.0, (cells - 1) * pool + (pool - 1) / 2.0);
}

}  // namespace

AttentionHeadGrid::AttentionHeadGrid(QWidget* parent) : ThemedPlot(parent) {
  plotLayout()->clear();
  title_ = new QCPTextElement(this, QString(), theme().title_font);
  title_->setMargins(QMargins(2, 2, 2, 4));
  // The title must not widen the heads' column (the colour scale would lose its width): it is
  // elided to fit instead (adjustLayout). A width of 0 would mean "unset" to the layout.
  title_->setMinimumSize(1, 0);
  title_->setTextFlags(Qt::AlignCenter | Qt::TextDontClip);
  heads_layout_ = new QCPLayoutGrid;
  scale_ = new QCPColorScale(this);
  masked_legend_ = new MaskedCellLegend(this);
  plotLayout()->addElement(0, 0, title_);
  plotLayout()->addElement(0, 1, masked_legend_);
  plotLayout()->addElement(1, 0, heads_layout_);
  plotLayout()->addElement(1, 1, scale_);
  plotLayout()->setColumnStretchFactor(1, 0.001);
  plotLayout()->setRowStretchFactor(0, 0.001);
  plotLayout()->setAutoMargins(QCP::msNone);  // fitAspect() owns the outer margins
  plotLayout()->setMargins(QMargins(6, 6, 6, 6));
  heads_layout_->setFillOrder(QCPLayoutGrid::foColumnsFirst, false);  // row-major reading order
  heads_layout_->setColumnSpacing(6);
  heads_layout_->setRowSpacing(4);
  scale_->setBarWidth(14);
  scale_->setRangeDrag(false);
  scale_->setRangeZoom(false);
  scale_->setGradient(AttentionHeadDisplay::gradient(theme()));
  scale_->setLabel(display_.scaleLabel(true));
  setEmptyHint(tr("Attention appears after the first probe step"));
  setEmptyState(true);

  connect(this, &ThemedPlot::themeChanged, this, &AttentionHeadGrid::styleCells);
  connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    const int head = headAt(event->pos());
    if (head < 0) return;
    setSelectedHead(head);
    Q_EMIT headClicked(head);
  });
  connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    // Tokens such as "<s>" must not be read as markup.
    const QString text = hoverText(event->pos());
    showToolTipAt(event->pos(), text.isEmpty() ? text : Qt::convertFromPlainText(text));
  });
  refreshTheme();
}

void AttentionHeadGrid::setHeads(const std::vector<LabeledMatrix>& heads,
                                 const AttentionHeadDisplay& display, const QStringList& names) {
  setHeads(std::make_shared<const std::vector<LabeledMatrix>>(heads), display, names);
}

void AttentionHeadGrid::setHeads(std::shared_ptr<const std::vector<LabeledMatrix>> heads,
                                 const AttentionHeadDisplay& display, const QStringList& names) {
  heads_ = heads ? std::move(heads) : std::make_shared<const std::vector<LabeledMatrix>>();
  display_ = display;
  if (static_cast<int>(heads_->size()) != headCount()) {
    rebuildCells(static_cast<int>(heads_->size()));
  }
  names_ = names;
  for (int i = 0; i < headCount(); ++i) cells_[static_cast<size_t>(i)].label->setText(cellName(i));
  // PerHead (and Run with per-head tops) gives every map its own range; the bar then reads as
  // fractions of a head's top.
  const bool per_head = display_.headsHaveOwnRanges();
  scale_->setDataRange(per_head ? QCPRange(0.0, 1.0) : display_.colorRange(LabeledMatrix()));
  scale_->setLabel(display_.scaleLabel(true));
  bool masked = false;
  for (size_t i = 0; i < heads_->size(); ++i) {
    QCPColorMap* map = cells_[i].map;
    if (per_head) {
      map->setColorScale(nullptr);
      map->setGradient(scale_->gradient());
      map->setDataRange(display_.colorRange((*heads_)[i], static_cast<int>(i)));
    } else if (map->colorScale() != scale_) {
      map->setColorScale(scale_);
    }
    masked = masked || display_.hasMaskedCells((*heads_)[i]);
  }
  masked_legend_->setShown(masked);
  masked_legend_->setText(display_.isCausal() ? tr("masked (causal)") : tr("masked"));
  // The thumbnails' pixel size is known for sure only after the next layout pass; fill now when
  // the cells were laid out before (same head count), else that pass fills them.
  maps_stale_ = true;
  if (cells_.empty() || cells_.front().rect->rect().width() > 0) {
    pool_ = poolForLayout();
    fillMaps();
  }
  if (selected_ >= headCount()) selected_ = -1;
  setEmptyState(heads_->empty());
  styleCells(theme());
  replot(rpQueuedReplot);
}

void AttentionHeadGrid::fillMaps() {
  for (size_t i = 0; i < heads_->size() && i < cells_.size(); ++i) {
    const LabeledMatrix& m = (*heads_)[i];
    Cell& cell = cells_[i];
    QCPColorMapData* data = cell.map->data();
    if (!m.isValid()) {
      data->clear();
      continue;
    }
    const LabeledMatrix shown = display_.displayMatrix(m, pool_);
    if (data->keySize() != shown.cols || data->valueSize() != shown.rows)
      data->setSize(shown.cols, shown.rows);
    data->setRange(pooledCellRange(m.cols, pool_), pooledCellRange(m.rows, pool_));
    cell.rect->axis(QCPAxis::atBottom)->setRange(-0.5, m.cols - 0.5);
    cell.rect->axis(QCPAxis::atLeft)->setRange(-0.5, m.rows - 0.5);
    for (int r = 0; r < shown.rows; ++r)
      for (int c = 0; c < shown.cols; ++c) data->setCell(c, r, shown.at(r, c));
  }
  maps_stale_ = false;
}

int AttentionHeadGrid::poolForLayout() const {
  if (cells_.empty()) return 1;
  const QRect thumb = cells_.front().rect->rect();
  if (thumb.width() <= 0 || thumb.height() <= 0) return pool_;
  int rows = 0, cols = 0;
  for (const LabeledMatrix& m : *heads_) {
    rows = std::max(rows, m.rows);
    cols = std::max(cols, m.cols);
  }
  // Device pixels: a High-DPI screen shows more weights per thumbnail before any must share one.
  const double dpr = std::max(1.0, bufferDevicePixelRatio());
  const double per_pixel = std::max(cols / (thumb.width() * dpr), rows / (thumb.height() * dpr));
  return std::max(1, static_cast<int>(std::ceil(per_pixel - 1e-9)));
}

void AttentionHeadGrid::clear() {
  heads_ = std::make_shared<const std::vector<LabeledMatrix>>();
  rebuildCells(0);
  selected_ = -1;
  setEmptyState(true);
  replot(rpQueuedReplot);
}

void AttentionHeadGrid::setTitle(const QString& title) {
  full_title_ = title;
  title_->setText(title);
  replot(rpQueuedReplot);
}

QString AttentionHeadGrid::title() const {
  return full_title_;
}

QString AttentionHeadGrid::shownTitle() const {
  return title_->text();
}

void AttentionHeadGrid::setSelectedHead(int head) {
  selected_ = head >= 0 && head < headCount() ? head : -1;
  styleCells(theme());
  replot(rpQueuedReplot);
}

QString AttentionHeadGrid::cellName(int head) const {
  return head < names_.size() ? names_[head] : tr("head %1").arg(head);
}

void AttentionHeadGrid::rebuildCells(int count) {
  for (Cell& cell : cells_) removePlottable(cell.map);
  heads_layout_->clear();  // deletes the per-head boxes with their rects and labels
  cells_.clear();
  for (int i = 0; i < count; ++i) {
    Cell cell;
    auto* box = new QCPLayoutGrid;
    heads_layout_->addElement(box);
    cell.label = new QCPTextElement(this, cellName(i), theme().font);
    cell.rect = new QCPAxisRect(this, true);
    box->addElement(0, 0, cell.label);
    box->addElement(1, 0, cell.rect);
    box->setRowSpacing(0);
    box->setRowStretchFactor(0, 0.001);
    cell.rect->setAutoMargins(QCP::msNone);
    cell.rect->setMargins(QMargins(3, 1, 3, 3));
    cell.rect->setRangeDrag(Qt::Orientations());
    cell.rect->setRangeZoom(Qt::Orientations());
    for (QCPAxis* axis : cell.rect->axes()) {
      axis->setVisible(true);  // a thin frame around each head
      axis->setTicks(false);
      axis->setTickLabels(false);
      axis->grid()->setVisible(false);
    }
    cell.rect->axis(QCPAxis::atLeft)->setRangeReversed(true);
    cell.rect->axis(QCPAxis::atRight)->setRangeReversed(true);
    cell.map =
        new QCPColorMap(cell.rect->axis(QCPAxis::atBottom), cell.rect->axis(QCPAxis::atLeft));
    cell.map->setInterpolate(false);
    cell.map->setTightBoundary(false);
    cell.map->setColorScale(scale_);
    cells_.push_back(cell);
  }
  columns_ = 0;  // force a new wrap on the next layout pass
}

double AttentionHeadGrid::headAspect() const {
  for (const LabeledMatrix& m : *heads_)
    if (m.isValid()) return double(m.cols) / m.rows;
  return 1.0;
}

bool AttentionHeadGrid::updateColumns() {
  const int n = headCount();
  if (n == 0) return false;
  // Pick the column count that gives the biggest cells with the heads' own aspect ratio (like
  // choosing plt.subplots(rows, cols) by hand for the window at hand).
  const double aspect = headAspect();
  const double label_h = headLabel(0)->outerRect().height() > 0
                             ? headLabel(0)->outerRect().height()
                             : QFontMetrics(theme().font).height() + 4;
  const double scale_w = scale_->outerRect().width() > 0 ? scale_->outerRect().width() : 90.0;
  const double title_h = title_->outerRect().height();
  const double avail_w = std::max(50.0, viewport().width() - scale_w - 8.0);
  const double avail_h = std::max(50.0, viewport().height() - title_h - 4.0);
  std::vector<double> sizes(static_cast<size_t>(n) + 1, 0.0);
  double best_size = 0.0;
  for (int c = 1; c <= n; ++c) {
    const int r = (n + c - 1) / c;
    const double cell_w = avail_w / c - 12.0;
    const double cell_h = avail_h / r - label_h - 8.0;
    sizes[c] = std::min(cell_w, cell_h * aspect);
    best_size = std::max(best_size, sizes[c]);
  }
  // Among layouts within 10% of the biggest cells prefer the squarest arrangement (2x2 rather
  // than 4x1): it reads as a grid and leaves room on both sides.
  int best = 1;
  int best_balance = INT_MAX;
  for (int c = 1; c <= n; ++c) {
    const int balance = std::abs((n + c - 1) / c - c);
    if (sizes[c] >= 0.9 * best_size && balance < best_balance) {
      best_balance = balance;
      best = c;
    }
  }
  if (best == columns_) return false;
  columns_ = best;
  heads_layout_->setWrap(columns_);
  heads_layout_->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
  return true;
}

bool AttentionHeadGrid::fitAspect() {
  const int n = headCount();
  if (n == 0 || columns_ <= 0) return false;
  const int rows = (n + columns_ - 1) / columns_;
  const QMargins old = plotLayout()->margins();
  const QRect cell = cells_[0].rect->rect();
  if (cell.width() <= 0 || cell.height() <= 0) return false;
  // Per-cell space without our margins, then the largest cell of the heads' aspect inside it;
  // the rest becomes outer margin so title, heads and colour scale stay together, centred. A
  // small padding keeps exports off the image border.
  // A colour scale the last pass left narrower than its minimum (tick labels measured since)
  // gets it back from the heads, else it is drawn over them.
  const double avail_w =
      cell.width() +
      double(old.left() + old.right() - 2 * kPad - widthShortfall(scale_)) / columns_;
  const double avail_h = cell.height() + double(old.top() + old.bottom() - 2 * kPad) / rows;
  const double aspect = headAspect();
  const double w = std::min(avail_w, avail_h * aspect);
  const double h = w / aspect;
  const int extra_w = std::max(0, static_cast<int>(columns_ * (avail_w - w)));
  const int extra_h = std::max(0, static_cast<int>(rows * (avail_h - h)));
  const QMargins margins(kPad + extra_w / 2, kPad + extra_h / 2, kPad + extra_w - extra_w / 2,
                         kPad + extra_h - extra_h / 2);
  if (std::abs(margins.left() - old.left()) + std::abs(margins.top() - old.top()) +
          std::abs(margins.right() - old.right()) + std::abs(margins.bottom() - old.bottom()) <=
      2)
    return false;
  plotLayout()->setMargins(margins);
  return true;
}

bool AttentionHeadGrid::adjustLayout() {
  // Cell sizes are stale until a new wrap or new margins are laid out.
  bool changed =
      fitTitle(title_, full_title_, scale_->outerRect().width() + plotLayout()->columnSpacing());
  changed |= updateColumns();
  if (!changed) changed = fitAspect();
  // Stale maps are filled even from a provisional layout: this may be the last pass before the
  // draw. The pool is refined once the sizes have settled.
  const int pool = poolForLayout();
  if (maps_stale_ || (!changed && pool != pool_)) {
    pool_ = pool;
    fillMaps();
  }
  return changed;
}

void AttentionHeadGrid::styleCells(const PlotTheme& theme) {
  title_->setFont(theme.title_font);
  title_->setTextColor(theme.foreground);
  const QCPColorGradient gradient = AttentionHeadDisplay::gradient(theme);
  scale_->setGradient(gradient);
  for (const Cell& cell : cells_) cell.map->setGradient(gradient);
  masked_legend_->setFont(theme.font);
  masked_legend_->setColors(AttentionHeadDisplay::maskedColor(theme), theme.foreground);
  for (int i = 0; i < headCount(); ++i) {
    const bool selected = i == selected_;
    const QPen frame = selected ? QPen(theme.accent, 3) : QPen(theme.grid, 1);
    for (QCPAxis* axis : cells_[i].rect->axes()) axis->setBasePen(frame);
    cells_[i].rect->setBackground(QBrush(theme.background));
    QFont font = theme.font;
    font.setBold(selected);
    cells_[i].label->setFont(font);
    cells_[i].label->setTextColor(selected ? theme.accent : theme.foreground);
  }
}

int AttentionHeadGrid::headAt(const QPoint& pos) const {
  for (int i = 0; i < headCount(); ++i)
    if (cells_[i].rect->outerRect().contains(pos) || cells_[i].label->outerRect().contains(pos))
      return i;
  return -1;
}

QString AttentionHeadGrid::hoverText(const QPoint& pos) const {
  const int head = headAt(pos);
  if (head < 0 || head >= static_cast<int>(heads_->size()) || !(*heads_)[head].isValid()) return {};
  if (!cells_[head].rect->rect().contains(pos))
    return tr("%1 · click to enlarge").arg(cellName(head));
  // The axes count weights, not drawn (pooled) cells, so this is the exact weight under the mouse.
  double key = 0, value = 0;
  cells_[head].map->pixelsToCoords(pos, key, value);
  const LabeledMatrix& m = (*heads_)[head];
  int col = qRound(key), row = qRound(value);
  if (row < 0 || col < 0 || row >= m.rows || col >= m.cols) return {};
  if (pool_ > 1) {
    // A pooled pixel shows its block's largest weight: name that cell, not an arbitrary one.
    const int top = row / pool_ * pool_, left = col / pool_ * pool_;
    float best = -1.0f;
    for (int r = top; r < std::min(m.rows, top + pool_); ++r) {
      for (int c = left; c < std::min(m.cols, left + pool_); ++c) {
        if (display_.isMasked(m, r, c) || !(m.at(r, c) > best)) continue;
        best = m.at(r, c);
        row = r;
        col = c;
      }
    }
  }
  return QStringLiteral("%1 · %2").arg(cellName(head), display_.cellText(m, row, col));
}

QCPRange AttentionHeadGrid::headColorRange(int head) const {
  return head >= 0 && head < headCount() ? cells_[head].map->dataRange() : QCPRange();
}

QCPColorMap* AttentionHeadGrid::headMap(int head) const {
  return head >= 0 && head < headCount() ? cells_[head].map : nullptr;
}

QCPAxisRect* AttentionHeadGrid::headRect(int head) const {
  return head >= 0 && head < headCount() ? cells_[head].rect : nullptr;
}

QCPTextElement* AttentionHeadGrid::headLabel(int head) const {
  return head >= 0 && head < headCount() ? cells_[head].label : nullptr;
}

}  // namespace ascope
