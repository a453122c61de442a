#pragma once
// Per-head statistics at one probe (engine/analysis/head_statistics.h computes them) and the
// changes of kind they revealed.
#include <cstdint>
#include <string>
#include <vector>

namespace ascope {

/// One per-head statistic (engine/analysis/head_statistics.h), averaged over the probe set.
struct HeadStatistic {
  std::string group;  ///< attention group name, e.g. "encoder self"
  int layer = 0;      ///< 0-based
  int head = 0;       ///< 0-based
  std::string metric;
  double value = 0;
};

/// A head whose kind changed (engine/analysis/head_kind.h), e.g. it became previous-token.
struct HeadKindChange {
  int64_t step = 0;
  std::string group;
  int layer = 0;
  int head = 0;
  std::string from, to;
  double score = 0;  ///< the metric that made it `to`
  std::string text;  ///< "step 1,200: encoder layer 1 head 3 became …" (0-based, as the GUI)
};

/// The statistics of every head at one probe, and the changes of kind they revealed.
struct HeadStatisticsUpdate {
  int64_t step = 0;
  std::vector<HeadStatistic> values;
  std::vector<HeadKindChange> changes;
};

}  // namespace ascope
