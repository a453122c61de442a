#include "engine/handout/handout_data_from_run.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "engine/analysis/attention_group_shape.h"
#include "engine/analysis/attention_rollout.h"
#include "engine/analysis/head_kind.h"
#include "engine/analysis/head_statistics.h"
#include "engine/core/number_text.h"
#include "engine/handout/handout_calibration.h"
#include "engine/handout/handout_key_settings.h"
#include "engine/handout/handout_payload_fills.h"
#include "engine/runfolder/bookmarks/bookmarks.h"
#include "engine/runfolder/run_reader.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "engine/vocabulary/metric_info.h"
#include "engine/vocabulary/task_descriptor.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {
namespace {

AttentionAxes axesOf(const TaskDescriptor* task, const std::string& group) {
  AttentionAxes axes = task && task->attention_axes ? task->attention_axes(group) : AttentionAxes{};
  if (axes.title.empty()) axes.title = group;
  return axes;
}

std::string titleOf(const TaskDescriptor* task, const std::string& group) {
  return axesOf(task, group).title;
}

/// "a.b.c" = value for every leaf of config.json, in its order.
void flatten(const nlohmann::json& j, const std::string& prefix, std::vector<HandoutSetting>& out) {
  if (j.is_object() && !j.empty()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    }
    return;
  }
  std::string value = j.is_string()
                          ? j.get<std::string>()
                          : j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out.push_back({prefix, std::move(value)});
}

std::string withThousands(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, ",");
  return n < 0 ? "-" + digits : digits;
}

void addSeries(HandoutData& data, HandoutSeries series) {
  if (!series.steps.empty()) data.series.push_back(std::move(series));
}

/// The task's declaration of `key`; a figure it does not declare (a run of a task this build does
/// not know) keeps its key as its title.
MetricInfo metricOf(const TaskDescriptor* task, const std::string& key) {
  const MetricInfo* declared = task ? findMetric(task->metrics, key) : nullptr;
  return declared ? *declared : undeclaredMetric(key);
}

/// The figures the validation passes carry, in the order they first appear: the task's headline
/// first, then the others in their declared order.
std::vector<MetricInfo> figuresOf(const OpenedRun& run, const TaskDescriptor* task) {
  std::vector<MetricInfo> out;
  for (const EpochSummary& e : run.epochs) {
    for (const Figure& f : e.figures) {
      if (!findMetric(out, f.key)) out.push_back(metricOf(task, f.key));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const MetricInfo& a, const MetricInfo& b) {
    return a.headline && !b.headline;
  });
  return out;
}

/// Train rows per step; validation rows per evaluation with the task's figures: the headline one
/// on a chart of its own, the others sharing one per scale (MetricInfo::full_scale): "chrF" and
/// "CER, WER, exact match".
void readCurves(const OpenedRun& run, const TaskDescriptor* task, const std::string& accuracy_name,
                HandoutData& data) {
  HandoutSeries train_loss{"loss", "loss", "Loss", "train", {}, {}};
  HandoutSeries train_accuracy{"accuracy", accuracy_name, "Accuracy", "train", {}, {}};
  for (const StepMetrics& s : run.steps) {
    train_loss.steps.push_back(static_cast<double>(s.step));
    train_loss.values.push_back(s.loss);
    train_accuracy.steps.push_back(static_cast<double>(s.step));
    train_accuracy.values.push_back(s.accuracy);
  }
  HandoutSeries val_loss{"loss", "loss", "Loss", "validation", {}, {}};
  HandoutSeries val_accuracy{"accuracy", accuracy_name, "Accuracy", "validation", {}, {}};
  const std::vector<MetricInfo> figures = figuresOf(run, task);
  std::map<double, std::string> others_charts;  // by scale: their titles
  for (const MetricInfo& m : figures) {
    if (m.headline) continue;
    std::string& chart = others_charts[m.full_scale];
    chart += (chart.empty() ? "" : ", ") + m.title;
  }
  std::vector<HandoutSeries> figure_series;
  for (const MetricInfo& m : figures) {
    figure_series.push_back(
        {m.key, m.title, m.headline ? m.title : others_charts[m.full_scale], "validation", {}, {}});
  }
  const auto add = [](HandoutSeries& series, std::int64_t step, double value) {
    series.steps.push_back(static_cast<double>(step));
    series.values.push_back(value);
  };
  for (const EpochSummary& e : run.epochs) {
    add(val_loss, e.step, e.val_loss);
    add(val_accuracy, e.step, e.val_accuracy);
    for (std::size_t i = 0; i < figures.size(); ++i) {
      if (std::optional<double> v = e.figures.get(figures[i].key))
        add(figure_series[i], e.step, *v);
    }
  }
  for (HandoutSeries* s : {&train_loss, &val_loss, &train_accuracy, &val_accuracy}) {
    addSeries(data, std::move(*s));
  }
  for (HandoutSeries& s : figure_series) addSeries(data, std::move(s));
}

void readTest(const OpenedRun& run, const TaskDescriptor* task, const std::string& accuracy_name,
              HandoutData& data) {
  if (!run.test) return;
  const TestEvaluation& t = *run.test;
  HandoutTest test;
  test.step = t.step;
  if (t.split == "none") {
    test.description = "no test split: the data has none, so the run has no test figure";
    data.test = std::move(test);
    return;
  }
  test.description = t.split + " split";
  if (t.samples > 0) test.description += ": " + withThousands(t.samples) + " samples";
  if (t.weights_step > 0) {
    test.description += ", weights of step " + withThousands(t.weights_step);
    if (t.weights_step != t.step) test.description += " (best validation)";
  }
  test.figures.push_back({"loss", "loss", t.loss});
  test.figures.push_back({"accuracy", accuracy_name, t.accuracy});
  for (const Figure& f : t.figures)
    test.figures.push_back({f.key, metricOf(task, f.key).title, f.value});
  data.test = std::move(test);
}

void readNotes(const OpenedRun& run, const std::string& run_dir, HandoutData& data) {
  Expected<std::vector<Bookmark>> bookmarks = readBookmarks(run_dir);
  if (bookmarks.ok()) {
    for (const Bookmark& b : *bookmarks) data.notes.push_back({b.step, "bookmark", b.note});
  } else {
    data.warnings.push_back(bookmarks.error());
  }
  for (const LearningRateChange& c : run.learning_rate_changes) {
    data.notes.push_back(
        {c.step, "learning rate",
         "learning rate " + formatNumber(c.previous_lr, 3) + " → " + formatNumber(c.lr, 3)});
  }
  std::stable_sort(data.notes.begin(), data.notes.end(),
                   [](const HandoutNote& a, const HandoutNote& b) { return a.step < b.step; });
}

void readHeadStats(const OpenedRun& run, const TaskDescriptor* task, HandoutData& data) {
  if (run.head_statistics.empty()) return;
  HandoutHeadStats& stats = data.head_stats;
  for (const HeadMetricInfo& m : kHeadMetrics) {
    stats.metrics.push_back({m.name, m.description, m.unit_range});
  }
  std::map<std::string, int> group_index, metric_index;
  for (std::size_t i = 0; i < stats.metrics.size(); ++i) {
    metric_index[stats.metrics[i].name] = static_cast<int>(i);
  }
  std::vector<std::int64_t> steps;
  for (const HeadStatsRow& row : run.head_statistics) {
    if (steps.empty() || steps.back() != row.step) steps.push_back(row.step);
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  std::map<std::int64_t, std::size_t> step_index;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    step_index[steps[i]] = i;
    stats.steps.push_back(static_cast<double>(steps[i]));
  }
  std::map<std::tuple<int, int, int, int>, std::size_t> series_index;
  std::map<std::int64_t, std::vector<HeadStatistic>> by_step;
  for (const HeadStatsRow& row : run.head_statistics) {
    const HeadStatistic& s = row.statistic;
    auto [g, added] = group_index.emplace(s.group, static_cast<int>(stats.groups.size()));
    if (added) stats.groups.push_back(titleOf(task, s.group));
    auto [m, new_metric] = metric_index.emplace(s.metric, static_cast<int>(stats.metrics.size()));
    if (new_metric) stats.metrics.push_back({s.metric, "", false});
    const auto key = std::make_tuple(g->second, s.layer, s.head, m->second);
    auto [it, new_series] = series_index.emplace(key, stats.series.size());
    if (new_series) {
      stats.series.push_back(
          {g->second, s.layer, s.head, m->second, std::vector<float>(steps.size(), std::nanf(""))});
    }
    stats.series[it->second].values[step_index[row.step]] = static_cast<float>(s.value);
    by_step[row.step].push_back(s);
  }
  std::sort(stats.series.begin(), stats.series.end(),
            [](const HandoutHeadSeries& a, const HandoutHeadSeries& b) {
              return std::tie(a.group, a.layer, a.head, a.metric) <
                     std::tie(b.group, b.layer, b.head, b.metric);
            });
  // The kinds the Heads dock notes ("became previous-token"), from the same statistics.
  HeadKindTracker tracker;
  for (const auto& [step, values] : by_step) {
    for (const HeadKindChange& c : tracker.observe(step, values)) {
      const int group = group_index[c.group];
      stats.changes.push_back({c.step, group, c.layer, c.head, c.to,
                               "step " + withThousands(c.step) + ": " + stats.groups[group] +
                                   " layer " + std::to_string(c.layer) + " head " +
                                   std::to_string(c.head) + " became " + c.to});
    }
  }
}

void readAblation(const OpenedRun& run, const TaskDescriptor* task, HandoutData& data) {
  if (!run.ablation) return;
  const AblationTable& table = *run.ablation;
  HandoutAblation ablation;
  for (const std::string& key : table.figureKeys()) {
    const MetricInfo m = metricOf(task, key);
    ablation.figures.push_back({m.key, m.title, m.decimals, m.better == Better::kLower});
  }
  const auto row = [&](const AblationRow& r) {
    HandoutAblationRow out{r.group.empty() ? "" : titleOf(task, r.group),
                           r.layer,
                           r.head,
                           r.ablation,
                           r.loss,
                           r.accuracy,
                           {}};
    for (const HandoutFigureInfo& f : ablation.figures) out.figures.push_back(r.figures.get(f.key));
    return out;
  };
  ablation.step = table.step;
  ablation.samples = table.baseline.samples;
  ablation.baseline = row(table.baseline);
  for (const AblationRow& r : table.rows) ablation.rows.push_back(row(r));
  data.ablation = std::move(ablation);
}

int groupIndex(std::vector<HandoutGroup>& groups, HandoutGroup group) {
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].key == group.key) return static_cast<int>(i);
  }
  groups.push_back(std::move(group));
  return static_cast<int>(groups.size() - 1);
}

HandoutAttention attentionOf(const AttentionGroup& group, int index) {
  HandoutAttention out;
  out.group = index;
  out.layers = group.layers;
  out.heads = group.heads;
  out.rows = group.maps.front().rows;
  out.cols = group.maps.front().cols;
  // Labels only where they match the matrix (the page shows indices otherwise), as the window.
  if (static_cast<int>(group.row_labels.size()) == out.rows) out.row_labels = group.row_labels;
  if (static_cast<int>(group.col_labels.size()) == out.cols) out.col_labels = group.col_labels;
  if (static_cast<int>(group.row_predictions.size()) == out.rows) {
    out.row_predictions = group.row_predictions;
  }
  out.weights.reserve(group.maps.size() * static_cast<std::size_t>(out.rows) * out.cols);
  for (const AttentionMap& map : group.maps) {
    out.weights.insert(out.weights.end(), map.values.begin(), map.values.end());
  }
  return out;
}

/// The rollout through layers 0..k for every k, as one map per layer.
std::optional<HandoutAttention> rolloutOf(const AttentionGroup& group, const HandoutAttention& of,
                                          const std::string& title,
                                          std::vector<HandoutGroup>& groups) {
  if (!isSelfAttention(group)) return std::nullopt;
  Expected<std::vector<AttentionMap>> rolled = attentionRolloutByLayer(group, RolloutOptions{});
  if (!rolled.ok() || rolled->empty()) return std::nullopt;
  HandoutGroup info;
  info.key = group.name + " · rollout";
  info.title = title + " · rollout";
  info.aggregate_of = title;
  info.causal = group.causal;
  info.query_title = groups[static_cast<std::size_t>(of.group)].query_title;
  info.key_title = groups[static_cast<std::size_t>(of.group)].key_title;
  for (std::size_t k = 0; k < rolled->size(); ++k) {
    info.layer_names.push_back(k == 0 ? "layer 0" : "layers 0–" + std::to_string(k));
  }
  HandoutAttention out;
  out.group = groupIndex(groups, std::move(info));
  out.layers = static_cast<int>(rolled->size());
  out.heads = 1;
  out.rows = of.rows;
  out.cols = of.cols;
  out.row_labels = of.row_labels;
  out.col_labels = of.col_labels;
  for (const AttentionMap& map : *rolled) {
    out.weights.insert(out.weights.end(), map.values.begin(), map.values.end());
  }
  return out;
}

}  // namespace

Expected<HandoutData> readHandoutData(
    const std::string& run_dir,
    const std::function<const TaskDescriptor*(const std::string& task_id)>& task_of,
    const RunSettingsCheck& check_settings, const TaskDescriptor*& task) {
  Expected<OpenedRun> opened = readRunFiles(run_dir);
  if (!opened.ok()) return Error{opened.error()};
  const OpenedRun& run = *opened;
  if (check_settings) {
    if (Status s = check_settings(run.config, run.path + "/config.json"); !s.ok()) {
      return Error{s.error()};
    }
  }
  task = task_of ? task_of(run.config.task) : nullptr;
  HandoutData data;
  data.run_name = std::filesystem::path(run.path).filename().string();
  data.task = run.config.task;
  data.task_title = task && !task->title.empty() ? task->title : run.config.task;
  const std::string accuracy_name =
      task && !task->accuracy_name.empty() ? task->accuracy_name : "accuracy";
  nlohmann::json config;
  to_json(config, run.config);
  flatten(config, "", data.settings);
  data.key_settings = keySettingsOf(run.config, task);
  if (task) {
    data.input_term = task->sample_terms.input;
    data.expected_term = task->sample_terms.expected;
    data.answer_term = task->sample_terms.answer;
    data.free_text = task->sample_terms.free_text;
  }
  readCurves(run, task, accuracy_name, data);
  readTest(run, task, accuracy_name, data);
  readNotes(run, run_dir, data);
  data.probe_samples = run.config.probe_samples;
  readHeadStats(run, task, data);
  readAblation(run, task, data);
  readHandoutCalibration(run_dir, data);
  for (const AttentionFileEntry& file : run.attention_files) {
    data.frames.push_back({file.step, file.path});
  }
  data.warnings.insert(data.warnings.end(), run.warnings.begin(), run.warnings.end());
  return data;
}

HandoutGroup handoutGroupOf(const AttentionGroup& group, const TaskDescriptor* task) {
  const AttentionAxes axes = axesOf(task, group.name);
  HandoutGroup info;
  info.key = group.name;
  info.title = axes.title;
  info.query_title = axes.query_title;
  info.key_title = axes.key_title;
  info.causal = group.causal;
  return info;
}

Expected<HandoutFrame> readHandoutFrame(const HandoutFrameSource& source,
                                        const TaskDescriptor* task,
                                        std::vector<HandoutGroup>& groups,
                                        std::vector<std::string>& warnings) {
  Expected<ProbeSet> probes = readProbeSet(source.path);
  if (!probes.ok()) return Error{probes.error()};
  HandoutFrame frame;
  frame.step = probes->step;
  for (const AttentionSnapshot& snapshot : probes->samples) {
    HandoutProbe probe;
    probe.sample_index = snapshot.sample_index;
    for (const AttentionGroup& group : snapshot.groups) {
      if (Status shape = checkAttentionGroupShape(group); !shape.ok()) {
        warnings.push_back(source.path + ": " + shape.error());
        continue;
      }
      HandoutGroup info = handoutGroupOf(group, task);
      const std::string title = info.title;
      const int index = groupIndex(groups, std::move(info));
      HandoutAttention attention = attentionOf(group, index);
      std::optional<HandoutAttention> rollout = rolloutOf(group, attention, title, groups);
      probe.attention.push_back(std::move(attention));
      if (rollout) probe.attention.push_back(std::move(*rollout));
    }
    for (const HandoutPayloadFill& fill : handoutPayloadFills()) {
      if (const Payload* payload = snapshot.payloads.findKind(fill.kind.c_str())) {
        fill.fill(probe, *payload);
      }
    }
    if (snapshot.sample) {
      const SamplePrediction& s = *snapshot.sample;
      probe.prediction = HandoutPrediction{s.input, s.expected, s.answer, s.probability, s.correct};
    }
    if (snapshot.positional_encoding && !frame.positional_encoding) {
      const PositionalEncodingSnapshot& pe = *snapshot.positional_encoding;
      if (pe.positions > 0 && pe.dims > 0 &&
          pe.values.size() == static_cast<std::size_t>(pe.positions) * pe.dims) {
        frame.positional_encoding = HandoutPositionalEncoding{
            pe.kind, pe.positions, pe.dims, pe.values, pe.grid_rows, pe.grid_cols, pe.has_cls};
      }
    }
    frame.probes.push_back(std::move(probe));
  }
  return frame;
}

}  // namespace ascope
