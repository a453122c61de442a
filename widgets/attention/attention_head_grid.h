#pragma once

#include "widgets/attention/attention_head_display.h"
#include "widgets/common/labeled_matrix.h"
#include "widgets/common/themed_plot.h"

#include <memory>
#include <vector>

namespace ascope {

class MaskedCellLegend;

/// Every head of one layer as a small heatmap titled "head k", in a grid whose column count is
/// chosen for the largest cells at the current size, with one colour scale (its meaning set by
/// the AttentionHeadDisplay) and a legend entry for masked cells when there are any. A head
/// larger than its thumbnail is drawn max-pooled to the thumbnail's pixels. Clicking a head
/// emits headClicked; the selected head gets an accent frame.
class AttentionHeadGrid : public ThemedPlot {
  Q_OBJECT

 public:
  explicit AttentionHeadGrid(QWidget* parent = nullptr);

  /// The heads of one layer, coloured and masked as `display` says; `names` titles the cells
  /// ("head k" where it has none).
  /// The heads are kept shared, not copied: pass a pointer into the snapshot they belong to
  /// (std::shared_ptr's aliasing constructor).
  void setHeads(std::shared_ptr<const std::vector<LabeledMatrix>> heads,
                const AttentionHeadDisplay& display, const QStringList& names = {});
  /// The same with a copy of `heads` (figures drawn once for export).
  void setHeads(const std::vector<LabeledMatrix>& heads, const AttentionHeadDisplay& display,
                const QStringList& names = {});
  const AttentionHeadDisplay& display() const { return display_; }
  void clear();
  void setTitle(const QString& title);
  QString title() const;
  /// The title as drawn: on one line where it fits, else broken at its " · " into lines
  /// (ThemedPlot::fitTitle).
  QString shownTitle() const;

  int headCount() const { return static_cast<int>(cells_.size()); }
  int columnCount() const { return columns_; }
  void setSelectedHead(int head);
  int selectedHead() const { return selected_; }

  /// Head under a widget position, or -1.
  int headAt(const QPoint& pos) const;
  /// Plain text: "head 2 · una → box: 0.42", "head 2 · click to enlarge" on its title.
  QString hoverText(const QPoint& pos) const;
  QCPColorMap* headMap(int head) const;
  /// The weights (PerRow: fractions of the row max) that map to the ends of head's colours.
  QCPRange headColorRange(int head) const;
  /// Each drawn cell of a head's map covers pool x pool weights (1 when the head fits).
  int thumbnailPool() const { return pool_; }
  QCPAxisRect* headRect(int head) const;
  QCPTextElement* headLabel(int head) const;
  QCPColorScale* colorScale() const { return scale_; }
  MaskedCellLegend* maskedLegend() const { return masked_legend_; }

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
  QString cellName(int head) const;
  /// Fills the maps from the heads at the pool that suits the laid-out thumbnails.
  void fillMaps();
  int poolForLayout() const;
  bool updateColumns();
  bool fitAspect();
  double headAspect() const;
  void styleCells(const PlotTheme& theme);

  std::vector<Cell> cells_;
  std::shared_ptr<const std::vector<LabeledMatrix>> heads_ =
      std::make_shared<const std::vector<LabeledMatrix>>();
  QStringList names_;
  AttentionHeadDisplay display_;
  QCPTextElement* title_ = nullptr;
  QString full_title_;  ///< title_ shows it elided to the plot's width
  MaskedCellLegend* masked_legend_ = nullptr;
  QCPLayoutGrid* heads_layout_ = nullptr;
  QCPColorScale* scale_ = nullptr;
  int columns_ = 1;
  int selected_ = -1;
  int pool_ = 1;
  bool maps_stale_ = false;
};

}  // namespace ascope
