#pragma once

#include "widgets/tables/head_stats_series.h"

#include <QHash>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace ascope {

/// Every head statistic of a run, kept compactly: one shared, ascending list of probe steps and,
/// per (group, metric, layer, head), a float per step (NaN where that head has no value). A
/// 12-layer, 12-head model with three groups, eight metrics and 2,000 probes takes about 28 MB.
class HeadStatsStore {
 public:
  struct Sample {
    std::int64_t step = 0;
    double value = 0.0;
  };

  /// Rows measured at `step`. A step seen before gets its values replaced; an earlier step than
  /// the newest is inserted in order. Non-finite values are skipped.
  void append(std::int64_t step, const std::vector<HeadStatsPoint>& rows);
  /// Replaces everything (an opened run).
  void set(const std::vector<HeadStatsProbe>& probes);
  void clear();

  bool isEmpty() const { return steps_.empty(); }
  /// Every recorded step, ascending.
  const std::vector<std::int64_t>& steps() const { return steps_; }
  /// In the order they first appeared.
  const QStringList& groups() const { return groups_; }
  const QStringList& metrics() const { return metrics_; }
  /// 1 + the largest layer (head) index recorded for the group; 0 for an unknown group.
  int layerCount(const QString& group) const;
  int headCount(const QString& group) const;

  /// Values aligned with steps(), NaN where missing; may be shorter than steps() (the missing
  /// tail). nullptr when the head has no value of that metric at all.
  const std::vector<float>* series(const QString& group, const QString& metric, int layer,
                                   int head) const;
  /// The value at the newest recorded step <= `step`.
  std::optional<Sample> atOrBefore(const QString& group, const QString& metric, int layer, int head,
                                   std::int64_t step) const;
  /// The value at the recorded step closest to `step` (the earlier one on a tie).
  std::optional<Sample> nearest(const QString& group, const QString& metric, int layer, int head,
                                std::int64_t step) const;
  /// The newest value.
  std::optional<Sample> latest(const QString& group, const QString& metric, int layer,
                               int head) const;
  /// Smallest and largest value of the metric over every head of the group and every step.
  std::optional<std::pair<double, double>> valueRange(const QString& group,
                                                      const QString& metric) const;
  /// Number of recorded (non-NaN) values of one head.
  int valueCount(const QString& group, const QString& metric, int layer, int head) const;

 private:
  struct GroupShape {
    int layers = 0;
    int heads = 0;
  };

  /// Index of `step` in steps_, inserting it (and a NaN into every series) when new.
  std::size_t stepIndex(std::int64_t step);
  void add(std::size_t step_index, const HeadStatsPoint& row);
  static std::uint64_t seriesKey(int group, int metric, int layer, int head);
  static std::uint32_t rangeKey(int group, int metric);
  std::optional<Sample> sampleAt(const std::vector<float>& values, std::size_t index) const;

  std::vector<std::int64_t> steps_;
  QStringList groups_;
  QStringList metrics_;
  std::vector<GroupShape> shapes_;  ///< per group index
  QHash<std::uint64_t, std::vector<float>> series_;
  QHash<std::uint32_t, std::pair<double, double>> ranges_;
};

}  // namespace ascope
