#pragma once

#include "widgets/attention_plot_data.h"
#include "widgets/exportable.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;

namespace ascope {

class AttentionHeadGrid;
class AttentionHeatmapView;
class ClsAttentionOverlay;

/// Attention of one probe step: pick the attention group (encoder self, decoder self, cross) and
/// the layer; all heads of that layer appear as a grid with a shared colour scale, and the clicked
/// head is shown large with token labels. For vision transformers the CLS token's attention is
/// also laid over the probe image.
class AttentionHeadGridPanel : public QWidget, public Exportable {
  Q_OBJECT

 public:
  explicit AttentionHeadGridPanel(QWidget* parent = nullptr);

  /// Keeps the chosen group (by name), layer and head when the new snapshot still has them.
  /// Taken by value: callers that are done with their snapshot can std::move it in.
  void setSnapshot(AttentionPlotData snapshot);
  const AttentionPlotData& snapshot() const { return snapshot_; }
  void clear();

  int groupCount() const { return static_cast<int>(snapshot_.groups.size()); }
  int layerCount() const;
  int headCount() const;
  int currentGroup() const { return group_; }
  int currentLayer() const { return layer_; }
  int currentHead() const { return head_; }
  void setCurrentGroup(int group);
  void setCurrentLayer(int layer);
  void setCurrentHead(int head);

  QComboBox* groupSelector() const { return group_box_; }
  QComboBox* layerSelector() const { return layer_box_; }
  AttentionHeadGrid* headGrid() const { return grid_; }
  AttentionHeatmapView* headView() const { return detail_; }
  ClsAttentionOverlay* clsOverlay() const { return overlay_; }

  QString exportBaseName() const override;
  /// The head grid of the current layer, with its colour scale.
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  /// Every weight of the current group: layer, head, query and key (index and token), weight.
  ExportResult exportCsv(const QString& path) const override;

 Q_SIGNALS:
  void headSelected(int group, int layer, int head);

 private:
  const AttentionPlotGroup* group() const;
  double layerMaxWeight() const;
  void fillSelectors();
  void showLayer();
  void showHead();
  void showContextMenu(const QPoint& pos);

  AttentionPlotData snapshot_;
  int group_ = 0;
  int layer_ = 0;
  int head_ = 0;

  QStackedWidget* stack_ = nullptr;
  QComboBox* group_box_ = nullptr;
  QLabel* group_label_ = nullptr;
  QComboBox* layer_box_ = nullptr;
  QLabel* step_label_ = nullptr;
  QSplitter* detail_split_ = nullptr;
  AttentionHeadGrid* grid_ = nullptr;
  AttentionHeatmapView* detail_ = nullptr;
  ClsAttentionOverlay* overlay_ = nullptr;
};

}  // namespace ascope
