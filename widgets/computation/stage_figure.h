#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "widgets/computation/computation_plot_data.h"

namespace ascope {

class FittingLabel;
class StageHeatmapView;

/// One stage of the Computation view: its title with the shape as the seeds write it and with
/// its numbers ("QKᵀ · [tokens × tokens] = [9 × 9]"), its formula, and its matrices side by side
/// (Q, K and V together).
class StageFigure : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxMatrices = 3;

  explicit StageFigure(QWidget* parent = nullptr);

  /// Shows stage `stage` of `data` (kept shared: the hover reads it).
  void setStage(std::shared_ptr<const ComputationPlotData> data, int stage);
  void clear();
  /// Outlines the cell taken apart: (query, key) in a query × key stage, the query's row in
  /// query rows, the key's row in key rows.
  void setCell(int query, int key);

  FittingLabel* titleLabel() const { return title_; }
  FittingLabel* formulaLabel() const { return formula_; }
  /// The views in use (one per matrix of the stage).
  std::vector<StageHeatmapView*> views() const;
  const ComputationStage* stage() const { return stage_; }

 Q_SIGNALS:
  /// A query × key cell was clicked.
  void cellClicked(int query, int key);

 private:
  std::shared_ptr<const ComputationPlotData> data_;
  const ComputationStage* stage_ = nullptr;
  FittingLabel* title_ = nullptr;
  FittingLabel* formula_ = nullptr;
  std::vector<StageHeatmapView*> views_;
};

}  // namespace ascope
