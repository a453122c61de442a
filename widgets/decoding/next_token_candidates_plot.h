#pragma once

#include "widgets/attention/attention_plot_data.h"
#include "widgets/decoding/decoding_plot.h"

namespace ascope {

/// The most probable next tokens of one decoding step as horizontal bars, best on top, each with
/// its probability; the bar of the token decoding chose stands out in the accent colour.
class NextTokenCandidatesPlot : public DecodingPlot {
  Q_OBJECT

 public:
  /// `empty_hint` is shown for a step without candidates.
  explicit NextTokenCandidatesPlot(const QString& empty_hint, QWidget* parent = nullptr);

  /// Shows `candidates` under `title`, highlighting the bar of `chosen` when it is among them.
  void showCandidates(const QString& title, const DecodingCandidates& candidates,
                      const QString& chosen);

 private:
  void render();
  /// Its minimum height: room for the title, a readable bar per candidate (five at least) and
  /// the axis in the theme's font. A fixed 90 px squashed the chart to a strip at font zoom +2 on
  /// a 720-line screen; the Decoding dock scrolls instead when it is shorter.
  void fitMinimumHeight();

  QCPBars* others_ = nullptr;
  QCPBars* chosen_bar_ = nullptr;
  QString empty_hint_;
  QString title_;
  DecodingCandidates candidates_;
  QString chosen_;
  bool has_candidates_ = false;  // nothing to draw before the first showCandidates
};

}  // namespace ascope
