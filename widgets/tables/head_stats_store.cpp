#include "widgets/tables/head_stats_store.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ascope {
namespace {

constexpr float kMissing = std::numeric_limits<float>::quiet_NaN();

}  // namespace

std::uint64_t HeadStatsStore::seriesKey(int group, int metric, int layer, int head) {
  // 16 bits each: far more groups, metrics, layers and heads than any model here has.
  return (std::uint64_t(std::uint16_t(group)) << 48) |
         (std::uint64_t(std::uint16_t(metric)) << 32) |
         (std::uint64_t(std::uint16_t(layer)) << 16) | std::uint64_t(std::uint16_t(head));
}

std::uint32_t HeadStatsStore::rangeKey(int group, int metric) {
  return (std::uint32_t(std::uint16_t(group)) << 16) | std::uint32_t(std::uint16_t(metric));
}

void HeadStatsStore::clear() {
  steps_.clear();
  groups_.clear();
  metrics_.clear();
  shapes_.clear();
  series_.clear();
  ranges_.clear();
}

std::size_t HeadStatsStore::stepIndex(std::int64_t step) {
  const auto it = std::lower_bound(steps_.begin(), steps_.end(), step);
  const auto index = static_cast<std::size_t>(it - steps_.begin());
  if (it != steps_.end() && *it == step) return index;
  steps_.insert(it, step);
  // Probes arrive in order, so this is the end and the series keep their (shorter) length;
  // only a step in the past shifts the values behind it.
  for (auto s = series_.begin(); s != series_.end(); ++s)
    if (s->size() > index) s->insert(s->begin() + static_cast<std::ptrdiff_t>(index), kMissing);
  return index;
}

void HeadStatsStore::add(std::size_t step_index, const HeadStatsPoint& row) {
  if (!std::isfinite(row.value) || row.layer < 0 || row.head < 0) return;
  int group = static_cast<int>(groups_.indexOf(row.group));
  if (group < 0) {
    group = static_cast<int>(groups_.size());
    groups_.append(row.group);
    shapes_.push_back({});
  }
  int metric = static_cast<int>(metrics_.indexOf(row.metric));
  if (metric < 0) {
    metric = static_cast<int>(metrics_.size());
    metrics_.append(row.metric);
  }
  GroupShape& shape = shapes_[static_cast<std::size_t>(group)];
  shape.layers = std::max(shape.layers, row.layer + 1);
  shape.heads = std::max(shape.heads, row.head + 1);
  std::vector<float>& values = series_[seriesKey(group, metric, row.layer, row.head)];
  if (values.size() <= step_index) values.resize(step_index + 1, kMissing);
  values[step_index] = static_cast<float>(row.value);
  const double v = values[step_index];  // the range holds what is stored, after float rounding
  const std::uint32_t key = rangeKey(group, metric);
  auto range = ranges_.find(key);
  if (range == ranges_.end())
    ranges_.insert(key, {v, v});
  else
    *range = {std::min(range->first, v), std::max(range->second, v)};
}

void HeadStatsStore::append(std::int64_t step, const std::vector<HeadStatsPoint>& rows) {
  if (rows.empty()) return;
  const std::size_t index = stepIndex(step);
  for (const HeadStatsPoint& row : rows) add(index, row);
}

void HeadStatsStore::set(const std::vector<HeadStatsProbe>& probes) {
  clear();
  // All steps first, so every series is filled in place without shifting.
  for (const HeadStatsProbe& probe : probes)
    if (!probe.rows.empty()) steps_.push_back(probe.step);
  std::sort(steps_.begin(), steps_.end());
  steps_.erase(std::unique(steps_.begin(), steps_.end()), steps_.end());
  for (const HeadStatsProbe& probe : probes) append(probe.step, probe.rows);
}

int HeadStatsStore::layerCount(const QString& group) const {
  const auto g = groups_.indexOf(group);
  return g < 0 ? 0 : shapes_[static_cast<std::size_t>(g)].layers;
}

int HeadStatsStore::headCount(const QString& group) const {
  const auto g = groups_.indexOf(group);
  return g < 0 ? 0 : shapes_[static_cast<std::size_t>(g)].heads;
}

const std::vector<float>* HeadStatsStore::series(const QString& group, const QString& metric,
                                                 int layer, int head) const {
  const auto g = groups_.indexOf(group);
  const auto m = metrics_.indexOf(metric);
  if (g < 0 || m < 0 || layer < 0 || head < 0) return nullptr;
  const auto it =
      series_.constFind(seriesKey(static_cast<int>(g), static_cast<int>(m), layer, head));
  return it == series_.constEnd() ? nullptr : &*it;
}

std::optional<HeadStatsStore::Sample> HeadStatsStore::sampleAt(const std::vector<float>& values,
                                                               std::size_t index) const {
  if (index >= values.size() || std::isnan(values[index])) return std::nullopt;
  return Sample{steps_[index], values[index]};
}

std::optional<HeadStatsStore::Sample> HeadStatsStore::atOrBefore(const QString& group,
                                                                 const QString& metric, int layer,
                                                                 int head,
                                                                 std::int64_t step) const {
  const std::vector<float>* values = series(group, metric, layer, head);
  if (!values) return std::nullopt;
  auto end = static_cast<std::size_t>(std::upper_bound(steps_.begin(), steps_.end(), step) -
                                      steps_.begin());
  for (std::size_t i = std::min(end, values->size()); i-- > 0;)
    if (auto sample = sampleAt(*values, i)) return sample;
  return std::nullopt;
}

std::optional<HeadStatsStore::Sample> HeadStatsStore::nearest(const QString& group,
                                                              const QString& metric, int layer,
                                                              int head, std::int64_t step) const {
  const std::vector<float>* values = series(group, metric, layer, head);
  if (!values) return std::nullopt;
  const auto split = static_cast<std::size_t>(std::lower_bound(steps_.begin(), steps_.end(), step) -
                                              steps_.begin());
  std::optional<Sample> before, after;
  for (std::size_t i = std::min(split, values->size()); i-- > 0 && !before;)
    before = sampleAt(*values, i);
  for (std::size_t i = split; i < values->size() && !after; ++i) after = sampleAt(*values, i);
  if (!before) return after;
  if (!after) return before;
  return step - before->step <= after->step - step ? before : after;
}

std::optional<HeadStatsStore::Sample> HeadStatsStore::latest(const QString& group,
                                                             const QString& metric, int layer,
                                                             int head) const {
  return atOrBefore(group, metric, layer, head, std::numeric_limits<std::int64_t>::max());
}

std::optional<std::pair<double, double>> HeadStatsStore::valueRange(const QString& group,
                                                                    const QString& metric) const {
  const auto g = groups_.indexOf(group);
  const auto m = metrics_.indexOf(metric);
  if (g < 0 || m < 0) return std::nullopt;
  const auto it = ranges_.constFind(rangeKey(static_cast<int>(g), static_cast<int>(m)));
  if (it == ranges_.constEnd()) return std::nullopt;
  return *it;
}

int HeadStatsStore::valueCount(const QString& group, const QString& metric, int layer,
                               int head) const {
  const std::vector<float>* values = series(group, metric, layer, head);
  if (!values) return 0;
  return static_cast<int>(
      std::count_if(values->begin(), values->end(), [](float v) { return !std::isnan(v); }));
}

}  // namespace ascope
