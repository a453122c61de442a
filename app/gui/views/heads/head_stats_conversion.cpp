#include "app/gui/views/heads/head_stats_conversion.h"

#include <map>

#include "app/gui/views/attention/attention_plot_conversion.h"
#include "engine/analysis/head_kind.h"
#include "engine/analysis/head_statistics.h"

namespace ascope {

std::vector<HeadStatsPoint> toHeadStatsPoints(const std::string& task,
                                              const std::vector<HeadStatistic>& values) {
  std::map<std::string, QString> titles;  // a few groups, thousands of rows
  std::vector<HeadStatsPoint> points;
  points.reserve(values.size());
  for (const HeadStatistic& v : values) {
    auto title = titles.find(v.group);
    if (title == titles.end()) {
      title = titles.emplace(v.group, attentionGroupTitle(task, v.group)).first;
    }
    points.push_back({title->second, v.layer, v.head, QString::fromStdString(v.metric), v.value});
  }
  return points;
}

HeadKindNote toHeadKindNote(const std::string& task, const HeadKindChange& change) {
  HeadKindNote note;
  note.step = change.step;
  note.group = attentionGroupTitle(task, change.group);
  note.layer = change.layer;
  note.head = change.head;
  note.text = change.from.empty() ? QStringLiteral("is %1 (%2)")
                                        .arg(QString::fromStdString(change.to))
                                        .arg(change.score, 0, 'f', 2)
                                  : QStringLiteral("became %1 (%2; was %3)")
                                        .arg(QString::fromStdString(change.to))
                                        .arg(change.score, 0, 'f', 2)
                                        .arg(QString::fromStdString(change.from));
  return note;
}

std::vector<HeadStatsMetric> headStatsMetrics() {
  std::vector<HeadStatsMetric> metrics;
  for (const HeadMetricInfo& info : kHeadMetrics) {
    metrics.push_back(
        {QString::fromLatin1(info.name), QString::fromUtf8(info.description), info.unit_range});
  }
  return metrics;
}

HeadStatsHistory toHeadStatsHistory(const std::string& task,
                                    const std::vector<HeadStatsRow>& rows) {
  HeadStatsHistory history;
  HeadKindTracker tracker;
  std::vector<HeadStatistic> probe;
  const auto flush = [&](std::int64_t step) {
    if (probe.empty()) return;
    history.probes.push_back({step, toHeadStatsPoints(task, probe)});
    for (const HeadKindChange& change : tracker.observe(step, probe)) {
      history.notes.push_back(toHeadKindNote(task, change));
    }
    probe.clear();
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0 && rows[i].step != rows[i - 1].step) flush(rows[i - 1].step);
    probe.push_back(rows[i].statistic);
  }
  if (!rows.empty()) flush(rows.back().step);
  return history;
}

}  // namespace ascope
