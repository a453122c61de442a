#pragma once

#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_plot_data.h"

#include <QFont>
#include <QImage>
#include <QPalette>
#include <QSize>
#include <QString>

#include <memory>

namespace ascope {

class AttentionHeadGrid;
class AttentionHeatmapView;
class ClsAttentionOverlay;

/// What a frame of an attention video shows.
enum class AttentionFrameView {
  Head,        ///< one head, large, with its token labels
  LayerGrid,   ///< every head of one layer
  ClsOverlay,  ///< vision transformers: the CLS token's attention over the probe image
};

/// Draws the frames of an attention video: one snapshot's head, layer grid or CLS overlay at a
/// fixed size under a caption bar ("step 1200 · run · layer 1 · head 3"). Off-screen plots of its
/// own draw them, so nothing on screen changes, and a frame is the same size whatever the
/// window's. GUI thread only (the plots are widgets).
class AttentionFrameRenderer {
 public:
  /// Frames of `size` pixels drawn with `font` and `palette` (the window's look).
  AttentionFrameRenderer(AttentionFrameView view, QSize size, const QFont& font,
                         const QPalette& palette);
  ~AttentionFrameRenderer();
  AttentionFrameRenderer(const AttentionFrameRenderer&) = delete;
  AttentionFrameRenderer& operator=(const AttentionFrameRenderer&) = delete;

  /// Layer `layer` of `group` in one snapshot: head `head` (Head, ClsOverlay) or every head
  /// (LayerGrid), coloured as `display` says, `title` above the plot and `caption` on the bar.
  /// An RGB888 image of size(); a null image when the snapshot has no such layer or head, or
  /// (ClsOverlay) no probe image that the head attends over.
  QImage render(const AttentionPlotGroup& group, int layer, int head,
                const PatchImageContext& image, const AttentionHeadDisplay& display,
                const QString& title, const QString& caption);

  QSize size() const { return size_; }
  AttentionFrameView view() const { return view_; }

 private:
  /// The plot or overlay drawn into the area below the caption bar.
  QImage renderBody(const AttentionPlotGroup& group, int layer, int head,
                    const PatchImageContext& image, const AttentionHeadDisplay& display,
                    const QString& title, QSize body);

  AttentionFrameView view_;
  QSize size_;
  QFont font_;
  QPalette palette_;
  std::unique_ptr<AttentionHeadGrid> grid_;
  std::unique_ptr<AttentionHeatmapView> head_view_;
  std::unique_ptr<ClsAttentionOverlay> overlay_;
};

}  // namespace ascope
