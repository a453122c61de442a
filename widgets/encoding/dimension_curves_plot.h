#pragma once

#include "widgets/common/labeled_matrix.h"
#include "widgets/common/themed_plot.h"

#include <QList>

namespace ascope {

/// Chosen columns of a (positions x dimensions) table as curves over position: for sinusoidal
/// encodings the sine/cosine pairs of decreasing frequency become visible at once.
class DimensionCurvesPlot : public ThemedPlot {
  Q_OBJECT

 public:
  explicit DimensionCurvesPlot(QWidget* parent = nullptr);

  void setMatrix(const LabeledMatrix& matrix);
  void setDimensions(const QList<int>& dimensions);
  QList<int> dimensions() const { return dimensions_; }
  void clear();

  QString hoverText(const QPoint& pos) const;

 private:
  void rebuildGraphs();
  void styleGraphs(const PlotTheme& theme);

  LabeledMatrix matrix_;
  QList<int> dimensions_;
};

}  // namespace ascope
