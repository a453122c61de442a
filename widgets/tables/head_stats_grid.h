#pragma once

#include "widgets/common/plot_theme.h"
#include "widgets/tables/head_stats_series.h"

#include <QPixmap>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

namespace ascope {

class HeadStatsStore;

/// One metric of every head of one attention group as a layers x heads grid of sparklines
/// (rows "L0…", columns "H0…", 0-based as in the attention panel), painted directly: a 12 x 12
/// model is 144 small curves, far too many for a plot widget each. Every cell shows its value at
/// the cursor step (the newest value at or before it; the newest value when there is no cursor) as
/// text and as a tint, the cursor as a vertical line, and note markers at their steps. All cells
/// share the step axis (the run's recorded steps) and the value scale the owner sets. Cell sizes
/// follow the font, so a larger font gives larger cells; put the grid in a scroll area for models
/// that do not fit.
class HeadStatsGrid : public QWidget {
  Q_OBJECT

 public:
  /// `store` must outlive the grid; call refresh() after changing it.
  explicit HeadStatsGrid(const HeadStatsStore* store, QWidget* parent = nullptr);

  /// What to show: the group's layers and heads, the metric's values on y_min..y_max.
  void setSelection(const QString& group, const QString& metric, double y_min, double y_max);
  QString group() const { return group_; }
  QString metric() const { return metric_; }
  /// Notes of the shown group (others are ignored).
  void setNotes(std::vector<HeadKindNote> notes);
  /// A negative step hides the cursor (cells then show their newest value).
  void setCursorStep(std::int64_t step);
  std::int64_t cursorStep() const { return cursor_step_; }
  /// Frames a cell with the accent colour; -1 for none.
  void setPickedCell(int layer, int head);
  /// The store changed: lays out and repaints.
  void refresh();

  int layerCount() const { return layers_; }
  int headCount() const { return heads_; }
  /// The whole cell (frame included) in widget coordinates; empty when out of range.
  QRect cellRect(int layer, int head) const;
  /// The sparkline's area inside a cell.
  QRect plotRect(int layer, int head) const;
  /// {layer, head} under a position, or {-1, -1}.
  std::pair<int, int> cellAt(const QPoint& pos) const;
  /// The recorded step of that head nearest to widget x; -1 when it has none.
  std::int64_t stepAt(int layer, int head, int x) const;
  /// The value a cell shows (at the cursor, or the newest).
  std::optional<double> shownValue(int layer, int head) const;
  /// The text a cell shows: its shownValue(), or "–".
  QString valueText(int layer, int head) const;
  /// "encoder layer 1 head 2 — entropy 0.42 at step 1,200" for the step under the mouse, plus
  /// the cell's newest note; empty outside the cells.
  QString hoverText(const QPoint& pos) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  /// A click on a cell, with the recorded step nearest the click (-1 when the head has none).
  void cellClicked(int layer, int head, qint64 step);

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Metrics {
    int margin = 0;
    int pad = 0;
    int gap = 0;
    int row_header = 0;
    int column_header = 0;
    int text_height = 0;
    int min_cell_w = 0;
    int min_cell_h = 0;
  };
  struct Layout {
    int cell_w = 0;
    int cell_h = 0;
  };

  Metrics fontSizes() const;
  Layout layoutFor(const QSize& size) const;
  double stepToX(const QRect& plot, std::int64_t step) const;
  double valueToY(const QRect& plot, double value) const;
  const HeadKindNote* latestNote(int layer, int head) const;
  void paintCell(QPainter& painter, int layer, int head) const;
  void paintSparkline(QPainter& painter, const QRect& plot, const std::vector<float>& values) const;
  /// The cell's curve, drawn once into a transparent pixmap covering `plot` plus kCurveOverhang
  /// on every side, and reused until the data, the selection, the size or the theme change: moving
  /// the cursor or hovering then only repaints tints, text and lines.
  const QPixmap& curveImage(int layer, int head, const QRect& plot,
                            const std::vector<float>& values) const;
  void dropCurves() { curves_.clear(); }

  const HeadStatsStore* store_;
  PlotTheme theme_;
  QString group_;
  QString metric_;
  double y_min_ = 0.0;
  double y_max_ = 1.0;
  int layers_ = 0;
  int heads_ = 0;
  std::vector<HeadKindNote> notes_;
  std::int64_t cursor_step_ = -1;
  int picked_layer_ = -1;
  int picked_head_ = -1;
  mutable std::vector<QPixmap> curves_;  ///< per cell, layer-major; empty when stale
};

}  // namespace ascope
