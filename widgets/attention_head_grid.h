#pragma once

#include "widgets/labeled_matrix.h"
#include "widgets/themed_plot.h"

#include <vector>

namespace ascope {

/// Every head of one layer as a small heatmap titled "head k", in a grid whose column count is
/// chosen for the largest cells at the current size, with one shared colour scale. Clicking a
/// head emits headClicked; the selected head gets an accent frame.
class AttentionHeadGrid : public ThemedPlot {
  Q_OBJECT

 public:
  explicit AttentionHeadGrid(QWidget* parent = nullptr);

  /// All heads share the colour range [0, max_weight].
  void setHeads(const std::vector<LabeledMatrix>& heads, double max_weight);
  void clear();
  void setTitle(const QString& title);

  int headCount() const { return static_cast<int>(cells_.size()); }
  int columnCount() const { return columns_; }
  void setSelectedHead(int head);
  int selectedHead() const { return selected_; }

  /// Head under a widget position, or -1.
  int headAt(const QPoint& pos) const;
  QString hoverText(const QPoint& pos) const;
  QCPColorMap* headMap(int head) const;
  QCPAxisRect* headRect(int head) const;
  QCPTextElement* headLabel(int head) const;
  QCPColorScale* colorScale() const { return scale_; }

 Q_SIGNALS:
  void headClicked(int head);

 protected:
  /// Picks the column count for the laid-out size and keeps head cells at the heads' aspect.
  bool adjustLayout() override;

 private:
  struct Cell {
    QCPTextElement* label = nullptr;
    QCPAxisRect* rect = nullptr;
    QCPColorMap* map = nullptr;
  };

  void rebuildCells(int count);
  bool updateColumns();
  bool fitAspect();
  double headAspect() const;
  void styleCells(const PlotTheme& theme);

  std::vector<Cell> cells_;
  std::vector<LabeledMatrix> heads_;
  QCPTextElement* title_ = nullptr;
  QCPLayoutGrid* heads_layout_ = nullptr;
  QCPColorScale* scale_ = nullptr;
  int columns_ = 1;
  int selected_ = -1;
};

}  // namespace ascope
