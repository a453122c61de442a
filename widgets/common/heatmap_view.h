#pragma once

#include "widgets/common/exportable.h"
#include "widgets/common/labeled_matrix.h"
#include "widgets/common/themed_plot.h"

#include <functional>

class QMenu;

namespace ascope {

/// A labelled matrix drawn as a heatmap with a colour scale: row 0 at the top (like imshow), one
/// tick per row/column labelled with its token where space allows (thinned to every 2nd, 5th, ...
/// label otherwise, x labels rotated when they are long; see setDenseLabels), crisp cells,
/// zoom/pan, hover tooltip.
class HeatmapView : public ThemedPlot, public Exportable {
  Q_OBJECT

 public:
  enum class RangeMode { MinMax, ZeroToMax, Symmetric, Fixed };
  enum class GradientKind { Sequential, Diverging };
  using TooltipFormatter = std::function<QString(int row, int col, float value)>;

  explicit HeatmapView(QWidget* parent = nullptr);

  /// Taken by value: callers that are done with their matrix can std::move it in.
  void setMatrix(LabeledMatrix matrix);
  const LabeledMatrix& matrix() const { return matrix_; }
  void clear();

  void setTitle(const QString& title);
  QString title() const;
  /// Titles of the column (x) and row (y) axes, e.g. "key" and "query".
  void setAxisTitles(const QString& col_title, const QString& row_title);
  void setColorScaleLabel(const QString& label);
  void setGradientKind(GradientKind kind);
  void setRangeMode(RangeMode mode);
  /// Colour range for RangeMode::Fixed (also switches to it).
  void setFixedRange(double lower, double upper);
  QCPRange dataRange() const;

  /// Replaces the default tooltip ("row → col: value").
  void setTooltipFormatter(TooltipFormatter formatter);
  /// Fixed ticks for one axis (positions in cell coordinates); turns off automatic labels there.
  void setCustomTicks(Qt::Orientation axis, const QVector<double>& positions,
                      const QVector<QString>& labels);
  void setExportBaseName(const QString& name) { export_name_ = name; }
  /// Square cells (like imshow's default aspect); off lets the map fill the widget.
  void setKeepAspect(bool keep);

  /// Labels every row and column of a matrix with at most `max_cells` rows and columns instead
  /// of thinning them: the tick font shrinks with the cells down to `min_point_size`, and where
  /// even that does not fit, the view asks for a minimum size that does (so it belongs in a
  /// QScrollArea). Larger matrices keep thinned labels, which fill in again when zoomed.
  /// max_cells 0 (the default) thins always.
  void setDenseLabels(int max_cells, double min_point_size);
  /// True when the current matrix gets every label (see setDenseLabels).
  bool hasDenseLabels() const;
  /// Whether dense labels that do not fit even at the smallest font make the view ask for a
  /// larger minimum size (on, for a view in a scroll area) or are thinned to what fits (off, for
  /// a view that grows and shrinks with its dock; the wheel zooms in to read them all).
  void setGrowsForLabels(bool grows);

  /// Restores the full-matrix view after zooming or panning.
  void resetView();

  /// The matrix cell under a widget position; false outside the matrix.
  bool cellAt(const QPoint& pos, int* row, int* col) const;
  virtual QString hoverText(const QPoint& pos) const;
  /// Key/value range that puts `count` cells on integer coordinates 0..count-1 in a QCPColorMap.
  /// QCustomPlot stretches a single cell over the whole range instead, so that case gets ±0.5.
  static QCPRange cellCenterRange(int count);
  /// The tick labels currently placed on the column (Horizontal) or row (Vertical) axis.
  QMap<double, QString> tickLabels(Qt::Orientation axis) const;
  QCPColorMap* colorMap() const { return color_map_; }
  QCPColorScale* colorScale() const { return color_scale_; }
  QCPAxisRect* heatmapRect() const { return rect_; }
  /// Draws `item` in the cells' rectangle, in cell coordinates (cell (r, c) centred on x = c,
  /// y = r): marks laid over the matrix (a guess, a cover) move with its zoom and pan.
  void placeInCells(QCPAbstractItem* item) const;

  QString exportBaseName() const override { return export_name_; }
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  ExportResult exportCsv(const QString& path) const override;

 Q_SIGNALS:
  /// A cell was clicked (pressed and released without dragging) with the left button.
  void cellClicked(int row, int col);

 protected:
  bool adjustLayout() override;
  /// The tooltip (rich text) for a position; hoverText() by default.
  virtual QString toolTipAt(const QPoint& pos) const;
  /// Extra context-menu entries of subclasses go before the export entries.
  virtual void addContextActions(QMenu* menu);

 private:
  void updateColorRange();
  /// Chooses which labels fit the laid-out axes; returns true when the ticks changed.
  bool updateTicks();
  /// Shrinks the plot by outer margins so cells come out square; true when margins changed.
  bool fitAspect();
  /// Drops the colour scale's label while the scale is squeezed below its minimum (its ticks
  /// still read), and gives it back once the plot is wide enough again.
  bool fitScaleLabel();
  /// Elides each axis title to its axis's length; true when a shown title changed.
  bool fitAxisTitles();
  /// The tick font for labels `pitch` pixels apart: the theme font, smaller in dense mode.
  QFont tickFont(double pitch) const;
  /// Dense mode: asks (after this layout pass) for the size at which the labels fit.
  void updateMinimumSize();
  void applyTheme(const PlotTheme& theme);
  void onMouseMove(QMouseEvent* event);
  void showContextMenu(const QPoint& pos);

  LabeledMatrix matrix_;
  QCPAxisRect* rect_ = nullptr;
  QCPColorMap* color_map_ = nullptr;
  QCPColorScale* color_scale_ = nullptr;
  QCPTextElement* title_ = nullptr;
  QString full_title_;               ///< title_ shows it elided to the plot's width
  QString scale_label_;              ///< the colour scale's label, shown when it fits
  QString full_axis_titles_[2];      ///< columns (x), rows (y); shown elided to their axes
  int label_dropped_at_width_ = -1;  ///< the widget's width when the label was dropped
  int bar_width_ = 0;                ///< the colour bar's width before it was thinned
  QSharedPointer<QCPAxisTickerText> x_ticker_;
  QSharedPointer<QCPAxisTickerText> y_ticker_;
  bool custom_x_ticks_ = false;
  bool custom_y_ticks_ = false;
  bool grows_for_labels_ = true;
  bool keep_aspect_ = true;
  int dense_max_cells_ = 0;
  double dense_min_point_size_ = 7.0;
  QSize base_minimum_;
  QSize wanted_minimum_;
  QString row_title_ = QStringLiteral("row");
  GradientKind gradient_kind_ = GradientKind::Sequential;
  RangeMode range_mode_ = RangeMode::MinMax;
  QCPRange fixed_range_{0.0, 1.0};
  TooltipFormatter tooltip_;
  QString export_name_ = QStringLiteral("heatmap");
  QPoint press_pos_;  ///< where the left button went down: a click moves less than a drag
};

}  // namespace ascope
