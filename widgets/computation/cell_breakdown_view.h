#pragma once

#include <QWidget>

#include "widgets/computation/computation_plot_data.h"

namespace ascope {

class ComputationBarPlot;
class FittingLabel;

/// One weight of a head taken apart: the products q[d]·k[d] whose sum is the logit (bars, with
/// the sum and the logit said), the scale, the cell's place in its row before and after the
/// softmax (the row's weights drawn with the cell's key in the accent colour), and where the
/// positions were added to the tokens, the logit's four parts with one line saying whether the
/// head attends by content or by place here.
class CellBreakdownView : public QWidget {
  Q_OBJECT

 public:
  explicit CellBreakdownView(QWidget* parent = nullptr);

  void setBreakdown(const CellBreakdownData& cell);
  /// The head and input the cell belongs to, for exported slides.
  void setSlideHeading(const QString& heading);
  void clear();

  /// "by content", "by place" or "by content and place together" with the largest part named,
  /// longest first (FittingLabel's versions).
  static QStringList partsVerdict(const std::array<double, 4>& parts, const QStringList& names);

  FittingLabel* headingLabel() const { return heading_; }
  FittingLabel* sumLabel() const { return sum_; }
  FittingLabel* rankLabel() const { return rank_; }
  FittingLabel* partsLabel() const { return parts_line_; }
  ComputationBarPlot* productsPlot() const { return products_; }
  ComputationBarPlot* rowPlot() const { return row_; }
  ComputationBarPlot* partsPlot() const { return parts_; }

 private:
  FittingLabel* heading_ = nullptr;
  ComputationBarPlot* products_ = nullptr;
  FittingLabel* sum_ = nullptr;
  FittingLabel* rank_ = nullptr;
  ComputationBarPlot* row_ = nullptr;
  ComputationBarPlot* parts_ = nullptr;
  FittingLabel* parts_line_ = nullptr;
};

}  // namespace ascope
