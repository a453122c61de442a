#pragma once

#include "widgets/attention/attention_plot_data.h"

#include <QImage>
#include <QWidget>

#include <vector>

namespace ascope {

/// The whole model at a glance: every head of every layer of one attention group as a small
/// heatmap, rows = layers (layer 0 at the top), columns = heads. Each thumbnail is coloured on its
/// own head's scale (0..that head's largest weight): at this size the pattern of a head is what
/// can be read, not its strength, and one shared scale would leave the diffuse heads black. A
/// matrix larger than kMaxThumbnailCells is max-pooled, so a one-token diagonal never vanishes.
/// Clicking a thumbnail emits headClicked; the selected one gets an accent frame.
class AttentionModelView : public QWidget {
  Q_OBJECT

 public:
  /// Thumbnails keep at most this many cells per side (pooled above it).
  static constexpr int kMaxThumbnailCells = 64;

  explicit AttentionModelView(QWidget* parent = nullptr);

  /// Shows every layer and head of `group`; the selection is cleared.
  void setGroup(const AttentionPlotGroup& group);
  void clear();

  QString groupName() const { return group_name_; }
  int layerCount() const { return static_cast<int>(scaled_.size()); }
  /// Heads of the widest layer.
  int headCount() const { return heads_; }
  /// The head as drawn, one pixel per (pooled) weight; null when the model has no such head.
  QImage thumbnail(int layer, int head) const;
  /// The key tokens of the group (the columns of its heads).
  const QStringList& tokens() const { return tokens_; }

  /// Where the thumbnail is drawn at the current size; empty when there is none.
  QRect thumbnailRect(int layer, int head) const;
  /// The thumbnail under a widget position; false outside every thumbnail.
  bool headAt(const QPoint& pos, int* layer, int* head) const;
  void setSelectedHead(int layer, int head);
  int selectedLayer() const { return selected_layer_; }
  int selectedHead() const { return selected_head_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  void headClicked(int layer, int head);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  /// The thumbnails' images in the current theme's colours.
  void render();
  /// Side of one square thumbnail cell at the current size.
  int cellSide() const;
  QRect gridArea() const;

  /// Per layer and head: the pooled weights as fractions of the head's largest (NaN = masked),
  /// kept small so a theme change can colour them again.
  std::vector<std::vector<LabeledMatrix>> scaled_;
  QString group_name_;
  QStringList tokens_;
  std::vector<std::vector<QImage>> thumbnails_;
  int heads_ = 0;
  int selected_layer_ = -1;
  int selected_head_ = -1;
};

}  // namespace ascope
