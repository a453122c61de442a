#pragma once

#include "widgets/common/exportable.h"
#include "widgets/common/figure_context.h"

#include <QList>
#include <QStringList>

namespace ascope {

class PositionalEncodingPanel;

/// Every view of the positional encoding a PositionalEncodingPanel shows, for slides: the table,
/// the chosen dimensions as curves, the similarity of positions by dot product and by cosine,
/// and for vision transformers the per-patch similarity grid. Each in every format asked for,
/// with its data as CSV and a JSON sidecar; titles name run and step. An off-screen copy of the
/// panel draws them, so the panel keeps its tab.
///
///   positional_encoding/positional_encoding_step1200.png (.svg .pdf .csv .json)
///   positional_encoding/positional_similarity_cosine_step1200.png …
class PositionalEncodingFigureBundle {
 public:
  PositionalEncodingFigureBundle(const PositionalEncodingPanel& panel, FigureContext context);
  /// Called before each view (see BetweenFigures).
  void setBetweenFigures(BetweenFigures between) { between_ = std::move(between); }

  /// Writes the views under `folder` (nothing when there is no encoding yet); stops at the first
  /// failure and reports it.
  ExportResult write(const QString& folder, const QList<ImageFormat>& formats,
                     const ExportSize& size);
  /// Image stems written (one per view).
  const QStringList& figures() const { return figures_; }

 private:
  const PositionalEncodingPanel& panel_;
  BetweenFigures between_;
  FigureContext context_;
  QStringList figures_;
};

}  // namespace ascope
