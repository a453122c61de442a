#pragma once

#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_plot_data.h"
#include "widgets/common/exportable.h"
#include "widgets/common/figure_context.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace ascope {

class AttentionHeadGridPanel;
struct LabeledMatrix;

/// Every attention figure of the snapshot an AttentionHeadGridPanel shows, for slides: one
/// folder per kind of attention holding the head grid of every layer, plus the enlarged head and
/// (vision transformers) the CLS overlay of the head chosen on screen. Each figure is written in
/// every format asked for, with a JSON sidecar saying what it shows; titles name run, step,
/// layer and head. Off-screen copies of the panel's plots draw the figures, so the window does
/// not change.
///
///   attention/encoder_self/attention_encoder_self_layer1_step1200.png (.svg .pdf .json)
///   attention/encoder_self/attention_encoder_self_layer1_head3_step1200.png   (enlarged)
///   attention/encoder_self/cls_overlay_encoder_self_layer1_head3_step1200.png (ViT)
///   attention/mean_of_heads/attention_mean_of_heads_step1200.png               (aggregates)
class AttentionFigureBundle {
 public:
  /// Takes the panel's snapshot, its choices and colour scales as they are now: a live run's
  /// newer snapshot arriving while the figures are written does not mix into them.
  AttentionFigureBundle(const AttentionHeadGridPanel& panel, FigureContext context);
  /// Called before each figure (see BetweenFigures).
  void setBetweenFigures(BetweenFigures between) { between_ = std::move(between); }

  /// Writes the figures under `folder`; stops at the first failure and reports it.
  ExportResult write(const QString& folder, const QList<ImageFormat>& formats,
                     const ExportSize& size);
  /// Image stems written so far (one per figure, formats and sidecar not counted).
  const QStringList& figures() const { return figures_; }

  /// The attention CSV's name for this run and step: "attention_<run>_step1200.csv".
  static QString csvName(const FigureContext& context);

 private:
  using Render = std::function<ExportResult(const QString& path, ImageFormat format)>;
  ExportResult writeGroup(int group, const QString& folder);
  ExportResult writeEnlargedHead(const QString& folder);
  /// Renders `stem`.<suffix> in every format and writes `stem`.json with `sidecar`.
  ExportResult writeFigure(const QString& stem, const Render& render, QJsonObject sidecar);
  QJsonObject sidecarOf(const AttentionPlotGroup& g, int layer, int head,
                        const AttentionHeadDisplay& display, const LabeledMatrix& m) const;

  const AttentionHeadGridPanel& panel_;  ///< for the look (fonts, palette) of its plots only
  std::shared_ptr<const AttentionPlotData> data_;
  int group_ = 0, layer_ = 0, head_ = 0;
  bool words_ = false;         ///< the figures show words, not subword pieces
  bool offers_words_ = false;  ///< the snapshot's tokens are subword pieces
  std::vector<std::vector<AttentionHeadDisplay>> displays_;  ///< [group][layer]
  BetweenFigures between_;
  FigureContext context_;
  QList<ImageFormat> formats_;
  ExportSize size_;
  QStringList figures_;
};

}  // namespace ascope
