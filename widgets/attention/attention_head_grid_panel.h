#pragma once

#include "widgets/attention/attention_color_scale.h"
#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_plot_data.h"
#include "widgets/attention/attention_run_maxima.h"
#include "widgets/common/exportable.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;
class QShortcut;

namespace ascope {

class AttentionHeadGrid;
class FittingLabel;
class AttentionHeatmapView;
class ClsAttentionOverlay;
class PredictionBar;
class PredictionRound;

/// Attention of one probe step: pick the attention group (encoder self, decoder self, cross) and
/// the layer; all heads of that layer appear as a grid, and the clicked head is shown large with
/// token labels. Colours follow the chosen AttentionColorScale (by default one scale for the whole
/// run, so scrubbing a timeline compares like with like); masked cells are grey. Left/Right
/// change the head, Up/Down and PgUp/PgDn the layer while the panel has focus. For vision
/// transformers the CLS token's attention is also laid over the probe image.
class AttentionHeadGridPanel : public QWidget, public Exportable {
  Q_OBJECT

 public:
  explicit AttentionHeadGridPanel(QWidget* parent = nullptr);

  /// Keeps the chosen group (by name), layer and head when the new snapshot still has them.
  /// Its weights raise the Run scale of their groups (see runMaxWeight) when it is `part_of_run`;
  /// otherwise (an input the user asked about) they widen the scale only while it is shown.
  /// Taken by value: callers that are done with their snapshot can std::move it in.
  /// Shares `snapshot` (never copied: the timeline, the decoding view and this panel read the same
  /// data); null shows nothing.
  void setSnapshot(SharedPlotData snapshot, bool part_of_run = true);
  /// A snapshot made here (tests, the comparison window): it becomes the shared one.
  void setSnapshot(AttentionPlotData snapshot, bool part_of_run = true);
  /// The snapshot as drawn: in words when showsWords(), else as given.
  const AttentionPlotData& snapshot() const { return *snapshot_; }
  /// The snapshot drawn, shared (it stays as it is when the panel moves on to another).
  SharedPlotData sharedSnapshot() const { return snapshot_; }
  /// Empties the panel and forgets the Run scale (a new run starts).
  void clear();
  /// The enlarged head takes three quarters of the width, the head grid the rest but at least
  /// 140 px (once the panel shows data: its empty hint leaves the grid too narrow for its title).
  /// The enlarged head carries axes, token labels and a colour bar; the grid's heads are
  /// thumbnails to click.
  void divideWidth();

  /// Pieces or words (WordAttention) for a snapshot whose tokens are subword pieces; the choice
  /// is offered only then and kept for the snapshots that follow.
  void setShowsWords(bool words);
  bool showsWords() const { return words_; }
  /// True when the snapshot shown has pieces, so pieces or words can be chosen.
  bool offersWords() const;

  void setColorScale(AttentionColorScale scale);
  AttentionColorScale colorScale() const { return color_scale_; }
  /// The Run scale of the group named `group_name` reaches at least `maxima` for each of its
  /// heads, e.g. each head's largest weight over every stored snapshot of an opened run, so the
  /// first snapshot shown is already drawn on the run's scale. Call after clear().
  void setRunMaxima(const QString& group_name, const AttentionRunMaxima& maxima);
  /// Top of the Run scale of the head shown: its largest weight seen since clear() and of the
  /// maxima given by setRunMaxima; 1 when there is none.
  double runMaxWeight() const;
  /// How the current group's current layer is drawn (scale, masking, labels).
  AttentionHeadDisplay display() const;
  /// How layer `layer` of group `group` of the snapshot is drawn when shown (an export of every
  /// group); forHead(h) of it draws head h alone.
  AttentionHeadDisplay displayOf(int group, int layer) const;

  int groupCount() const { return static_cast<int>(snapshot_->groups.size()); }
  int layerCount() const;
  int headCount() const;
  int currentGroup() const { return group_; }
  /// The group whose model name (AttentionPlotGroup::id) is `id`; -1 when none is.
  int groupWithId(const QString& id) const;
  /// The shown group's model name; "" for an aggregate or nothing shown.
  QString currentGroupId() const;
  int currentLayer() const { return layer_; }
  int currentHead() const { return head_; }
  void setCurrentGroup(int group);
  void setCurrentLayer(int layer);
  void setCurrentHead(int head);

  QComboBox* groupSelector() const { return group_box_; }
  QComboBox* layerSelector() const { return layer_box_; }
  QComboBox* headSelector() const { return head_box_; }
  QComboBox* colorScaleSelector() const { return scale_box_; }
  QComboBox* tokensSelector() const { return tokens_box_; }
  AttentionHeadGrid* headGrid() const { return grid_; }
  AttentionHeatmapView* headView() const { return detail_; }
  ClsAttentionOverlay* clsOverlay() const { return overlay_; }
  /// Predict, then reveal, on the enlarged head: the round, started by H, the head grid's
  /// context menu or Lesson → Ask the class first, and its controls, shown while it runs (no
  /// button of their own: the selector row sets the dock's minimum width on a small screen).
  /// Choosing another head, layer or group ends a round.
  PredictionRound* predictionRound() const { return round_; }
  PredictionBar* predictionBar() const { return prediction_bar_; }

  QString exportBaseName() const override;
  /// The head grid of the current layer, with its colour scale, drawn by an off-screen copy so
  /// the grid on screen keeps its layout.
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  /// Every weight of every group: step, group, layer, head, query and key (index and token),
  /// weight.
  ExportResult exportCsv(const QString& path) const override;

 Q_SIGNALS:
  void headSelected(int group, int layer, int head);

 private:
  const AttentionPlotGroup* group() const;
  /// The Run scale's tops of `g`: seen, given and of a snapshot shown apart, head by head.
  AttentionRunMaxima runMaximaOf(const AttentionPlotGroup* g) const;
  void fillSelectors();
  void fillHeadSelector();
  void addKeyboardShortcuts();
  /// Steps the head or layer by `delta` (keyboard), staying inside the available ones.
  void stepHead(int delta);
  void stepLayer(int delta);
  void showLayer();
  void showHead();
  void showContextMenu(const QPoint& pos);
  /// While the class guesses, nothing on screen may show the hidden weights: the grid's
  /// thumbnails and the image's CLS overlay step aside, and the arrow keys move the guess's
  /// cursor instead of the head and layer.
  void hideGiveaways();

  SharedPlotData source_ = std::make_shared<const AttentionPlotData>();  ///< as given
  SharedPlotData snapshot_ = source_;  ///< as drawn: source_, or source_ in words
  bool part_of_run_ = true;            ///< of source_
  bool words_ = false;
  int group_ = 0;
  int layer_ = 0;
  int head_ = 0;
  AttentionColorScale color_scale_ = AttentionColorScale::Run;
  /// Per group name: of the snapshots shown since clear(), of a snapshot not part of the run
  /// (a user's input, an error under the scope), and given by setRunMaxima.
  QHash<QString, AttentionRunMaxima> seen_max_;
  QHash<QString, AttentionRunMaxima> shown_apart_max_;
  QHash<QString, AttentionRunMaxima> given_max_;
  /// The Run scale in words: the word matrices of the snapshots of the run shown since clear().
  QHash<QString, AttentionRunMaxima> seen_words_max_;

  QStackedWidget* stack_ = nullptr;
  QComboBox* group_box_ = nullptr;
  QComboBox* layer_box_ = nullptr;
  QComboBox* head_box_ = nullptr;
  QComboBox* scale_box_ = nullptr;
  QComboBox* tokens_box_ = nullptr;
  FittingLabel* step_label_ = nullptr;
  QSplitter* detail_split_ = nullptr;
  QSplitter* head_split_ = nullptr;  ///< head grid | enlarged head
  AttentionHeadGrid* grid_ = nullptr;
  AttentionHeatmapView* detail_ = nullptr;
  ClsAttentionOverlay* overlay_ = nullptr;
  PredictionBar* prediction_bar_ = nullptr;
  PredictionRound* round_ = nullptr;
  QList<QShortcut*> navigation_keys_;
};

}  // namespace ascope
