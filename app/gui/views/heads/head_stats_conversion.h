#pragma once
// The engine's per-head statistics and changes of kind as the Heads dock's plain data, with the
// groups named as the Attention dock names them (attentionGroupTitle), so a click on a head here
// finds the same group there.
#include <string>
#include <vector>

#include "engine/runfolder/head_stats/head_stats_csv_reader.h"
#include "engine/vocabulary/events.h"
#include "widgets/tables/head_stats_series.h"

namespace ascope {

std::vector<HeadStatsPoint> toHeadStatsPoints(const std::string& task,
                                              const std::vector<HeadStatistic>& values);
HeadKindNote toHeadKindNote(const std::string& task, const HeadKindChange& change);
/// The metrics the engine computes, with their descriptions and scales.
std::vector<HeadStatsMetric> headStatsMetrics();

/// An opened run's head_stats.csv as probes, and the changes of kind a run would have reported
/// (replayed through the same tracker).
struct HeadStatsHistory {
  std::vector<HeadStatsProbe> probes;
  std::vector<HeadKindNote> notes;
};
HeadStatsHistory toHeadStatsHistory(const std::string& task, const std::vector<HeadStatsRow>& rows);

}  // namespace ascope
