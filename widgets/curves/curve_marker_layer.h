#pragma once
// Labelled vertical lines on a curve plot, one per step: what bookmarks (curve_bookmarks.h) and
// run events such as a learning-rate change (curve_event_markers.h) both draw. The style says how
// the line looks, where the labels sit, how long they may be and whether a click on a line asks
// for its step.
#include <QColor>
#include <QObject>
#include <QPoint>
#include <QString>
#include <QVector>

#include "widgets/common/plot_theme.h"

class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;

namespace ascope {

class ThemedPlot;

struct CurveMarker {
  double step = 0;
  QString text;
};

struct CurveMarkerStyle {
  /// The theme colour of the line and the label's frame.
  QColor PlotTheme::*colour = &PlotTheme::accent;
  Qt::PenStyle line_style = Qt::SolidLine;
  /// Opacity (0-255) of the background behind a label.
  int label_alpha = 210;
  /// Where the first label sits, as a ratio of the axis rect's height from the top, and how far
  /// each next one moves, cycling over three rows so that close markers do not print over each
  /// other.
  double label_y = 0.02;
  double label_stagger = 0.07;
  Qt::Alignment label_alignment = Qt::AlignLeft | Qt::AlignTop;
  /// Put before every label.
  QString label_prefix;
  /// Above 0: a label is the text's first line, cut to this many characters.
  int label_chars = 0;
  /// Whether a click near a line emits markerClicked().
  bool clickable = false;
};

class CurveMarkerLayer : public QObject {
  Q_OBJECT

 public:
  /// Draws into `plot` (which owns the items); lives as long as the plot.
  CurveMarkerLayer(ThemedPlot* plot, const CurveMarkerStyle& style);

  /// Replaces the markers; an empty list removes them all.
  void setMarkers(const QVector<CurveMarker>& markers);
  void add(double step, const QString& text);
  void clear();
  const QVector<CurveMarker>& markers() const { return markers_; }
  /// The line and label of marker `i` (tests, exports).
  QCPItemStraightLine* line(int i) const { return lines_.value(i); }
  QCPItemText* label(int i) const { return labels_.value(i); }
  /// The index of the marker within a few pixels of x pixel `x`, or -1.
  int markerAt(int x) const;

 Q_SIGNALS:
  /// A clickable layer was clicked within a few pixels of the marker at `step`.
  void markerClicked(double step);

 private:
  /// Draws `marker`'s line and label, unthemed.
  void draw(const CurveMarker& marker);
  void removeItems();
  QString labelText(const QString& text) const;
  void applyTheme(const PlotTheme& theme);
  /// A label that would run past the axis rect's right edge goes to the left of its line (issue
  /// 24: markers near the run's end were cut off, on screen and in exported figures).
  void keepLabelsInside();
  void onRelease(QMouseEvent* event);

  ThemedPlot* plot_;
  CurveMarkerStyle style_;
  QVector<CurveMarker> markers_;
  QVector<QCPItemStraightLine*> lines_;
  QVector<QCPItemText*> labels_;
  QPoint press_pos_;
};

}  // namespace ascope
