#include "widgets/tables/confusion_matrix_view.h"

#include <QHeaderView>

#include <algorithm>

namespace ascope {

ConfusionMatrixView::ConfusionMatrixView(QWidget* parent) : QTableWidget(parent) {
  setObjectName(QStringLiteral("confusionMatrix"));
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionMode(QAbstractItemView::SingleSelection);
  setSelectionBehavior(QAbstractItemView::SelectItems);
  horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  setToolTip(
      tr("Rows: the true class. Columns: what the model answered. Click a cell to list "
         "its samples."));
  connect(this, &QTableWidget::cellClicked, this, [this](int row, int column) {
    if (row < confusion_.size() && column < confusion_[row].size()) {
      Q_EMIT cellPicked(row, column);
    }
  });
}

QColor ConfusionMatrixView::shadeFor(double share, bool diagonal) const {
  const QColor base = palette().color(QPalette::Base);
  const QColor ink = diagonal ? palette().color(QPalette::Highlight) : QColor(214, 39, 40);
  const double t = std::clamp(share, 0.0, 1.0) * (diagonal ? 0.55 : 0.85);
  return QColor::fromRgbF(base.redF() + (ink.redF() - base.redF()) * t,
                          base.greenF() + (ink.greenF() - base.greenF()) * t,
                          base.blueF() + (ink.blueF() - base.blueF()) * t);
}

void ConfusionMatrixView::setMatrix(const QStringList& classes,
                                    const QVector<QVector<qint64>>& confusion) {
  confusion_ = confusion;
  const int n = static_cast<int>(confusion.size());
  clear();
  setRowCount(n);
  setColumnCount(n);
  QStringList rows, columns;
  for (int c = 0; c < n; ++c) {
    const QString name = c < classes.size() ? classes[c] : QString::number(c);
    rows << tr("true %1").arg(name);
    columns << name;
  }
  setVerticalHeaderLabels(rows);
  setHorizontalHeaderLabels(columns);
  for (int t = 0; t < n; ++t) {
    qint64 row_total = 0;
    for (qint64 v : confusion[t]) row_total += v;
    for (int p = 0; p < n && p < confusion[t].size(); ++p) {
      const qint64 v = confusion[t][p];
      auto* item = new QTableWidgetItem(QString::number(v));
      item->setTextAlignment(Qt::AlignCenter);
      const double share = row_total > 0 ? static_cast<double>(v) / row_total : 0.0;
      item->setBackground(shadeFor(share, t == p));
      item->setToolTip(tr("%1 of %2 samples of class %3 answered %4 (%5 %)")
                           .arg(v)
                           .arg(row_total)
                           .arg(columns.value(t), columns.value(p))
                           .arg(100.0 * share, 0, 'f', 1));
      setItem(t, p, item);
    }
  }
}

void ConfusionMatrixView::clearMatrix() {
  confusion_.clear();
  clear();
  setRowCount(0);
  setColumnCount(0);
}

qint64 ConfusionMatrixView::count(int true_class, int predicted_class) const {
  if (true_class < 0 || true_class >= confusion_.size() || predicted_class < 0 ||
      predicted_class >= confusion_[true_class].size()) {
    return -1;
  }
  return confusion_[true_class][predicted_class];
}

}  // namespace ascope
