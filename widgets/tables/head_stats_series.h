#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace ascope {

/// One statistic of one head at one probe, as the engine measures it (averaged over the probe
/// samples). Layers and heads are 0-based here; panels show them 0-based too ("L0", "head 0"), as
/// the attention panel does.
struct HeadStatsPoint {
  QString group;   ///< attention group, e.g. "encoder", "decoder self", "cross"
  int layer = 0;   ///< 0-based
  int head = 0;    ///< 0-based
  QString metric;  ///< e.g. "entropy", "distance", "previous_token"
  double value = 0.0;
};

/// Every statistic recorded at one probe step (what a run stores per probe).
struct HeadStatsProbe {
  std::int64_t step = 0;
  std::vector<HeadStatsPoint> rows;
};

/// What a metric means, for the chooser and its tooltip. Metrics in [0, 1] (attention mass,
/// fractions) share a fixed 0..1 scale; the others (entropy, distance) are drawn up to the
/// largest value of any head, so heads compare with each other.
struct HeadStatsMetric {
  QString name;         ///< as in HeadStatsPoint::metric
  QString description;  ///< one line: "mean distance |query − key| weighted by attention"
  bool unit_range = false;
};

/// Something worth pointing out about one head at one step, e.g. that it became a previous-token
/// head. The panel adds step and head to `text` where it lists the note, so `text` says only what
/// happened ("became previous-token (0.91)").
struct HeadKindNote {
  std::int64_t step = 0;
  QString group;
  int layer = 0;  ///< 0-based
  int head = 0;   ///< 0-based
  QString text;
};

}  // namespace ascope
