#pragma once
// A confusion matrix as a table: a row per true class, a column per answered class, each cell the
// count of samples, shaded by its share of the row (so a class with few samples reads as clearly
// as a large one): the diagonal in the theme's accent, the mistakes in red. Clicking a cell picks
// the samples behind it.
#include <QTableWidget>

#include "widgets/tables/error_analysis_data.h"

namespace ascope {

class ConfusionMatrixView : public QTableWidget {
  Q_OBJECT

 public:
  explicit ConfusionMatrixView(QWidget* parent = nullptr);

  /// `confusion[t][p]` samples of class `classes[t]` answered as `classes[p]`.
  void setMatrix(const QStringList& classes, const QVector<QVector<qint64>>& confusion);
  void clearMatrix();
  /// The count shown at (true class, answered class); -1 outside the matrix.
  qint64 count(int true_class, int predicted_class) const;
  /// The shade of a cell holding `share` (0..1) of its row, on the diagonal or off it.
  QColor shadeFor(double share, bool diagonal) const;

 Q_SIGNALS:
  void cellPicked(int true_class, int predicted_class);

 private:
  QVector<QVector<qint64>> confusion_;
};

}  // namespace ascope
