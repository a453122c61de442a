#include "app/gui/views/attention/attention_aggregates.h"

#include <QCoreApplication>

#include <algorithm>

#include "engine/analysis/attention_rollout.h"

namespace ascope {
namespace {

QString trAggregates(const char* text) {
  return QCoreApplication::translate("AttentionAggregates", text);
}

/// The plot group's matrices as the engine's group (the analysis works on those).
AttentionGroup toEngineGroup(const AttentionPlotGroup& group) {
  AttentionGroup out;
  out.name = group.name.toStdString();
  out.causal = group.causal;
  out.layers = group.layerCount();
  out.heads = group.layerCount() > 0 ? group.headCount(0) : 0;
  for (const std::vector<LabeledMatrix>& layer : group.layers) {
    if (static_cast<int>(layer.size()) != out.heads) return {};  // ragged: no aggregate
    for (const LabeledMatrix& m : layer) out.maps.push_back(AttentionMap{m.rows, m.cols, m.values});
  }
  return out;
}

LabeledMatrix toMatrix(const AttentionMap& map, const LabeledMatrix& labelled_like) {
  LabeledMatrix out;
  out.rows = map.rows;
  out.cols = map.cols;
  out.values = map.values;
  out.row_labels = labelled_like.row_labels;
  out.col_labels = labelled_like.col_labels;
  return out;
}

AttentionPlotGroup aggregateGroup(const AttentionPlotGroup& of, const QString& what) {
  AttentionPlotGroup out;
  out.name = QStringLiteral("%1 · %2").arg(of.name, what);
  out.query_title = of.query_title;
  out.key_title = of.key_title;
  out.causal = of.causal;
  out.row_predictions = of.row_predictions;
  out.aggregate_of = of.name;
  out.layers.resize(1);
  return out;
}

}  // namespace

void addAttentionAggregates(AttentionPlotData& data, const AggregateSettings& settings) {
  data.groups.erase(
      std::remove_if(data.groups.begin(), data.groups.end(),
                     [](const AttentionPlotGroup& g) { return !g.aggregate_of.isEmpty(); }),
      data.groups.end());
  const std::size_t model_groups = data.groups.size();
  data.groups.reserve(3 * model_groups);  // references into it stay valid while adding
  for (std::size_t index = 0; index < model_groups; ++index) {
    const AttentionPlotGroup& group = data.groups[index];
    const AttentionGroup engine_group = toEngineGroup(group);
    if (engine_group.maps.empty()) continue;
    const LabeledMatrix& first = group.layers.front().front();

    AttentionPlotGroup mean = aggregateGroup(group, trAggregates("mean of heads"));
    for (int layer = 0; layer < engine_group.layers; ++layer) {
      mean.layers[0].push_back(toMatrix(fuseHeads(engine_group, layer, HeadFusion::kMean), first));
      mean.head_names.push_back(trAggregates("layer %1").arg(layer));
    }

    std::optional<AttentionPlotGroup> rollout;
    if (first.rows == first.cols && group.aggregate_of.isEmpty()) {
      RolloutOptions options;
      options.fusion = settings.fusion;
      options.discard_ratio = settings.discard_ratio;
      // Cross attention (queries and keys from two sequences) has no rollout: the error says so.
      Expected<std::vector<AttentionMap>> rolled = attentionRolloutByLayer(engine_group, options);
      if (rolled.ok()) {
        rollout = aggregateGroup(group, trAggregates("rollout"));
        for (std::size_t layer = 0; layer < rolled->size(); ++layer) {
          rollout->layers[0].push_back(toMatrix((*rolled)[layer], first));
          rollout->head_names.push_back(trAggregates("layers 0–%1").arg(layer));
        }
      }
    }
    data.groups.push_back(std::move(mean));
    if (rollout) data.groups.push_back(std::move(*rollout));
  }
}

}  // namespace ascope
