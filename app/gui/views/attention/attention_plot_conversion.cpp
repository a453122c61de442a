#include "app/gui/views/attention/attention_plot_conversion.h"

#include <QStringList>

#include "app/gui/views/sample/rgb_image_conversion.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/vocabulary/beam_payload.h"
#include "widgets/decoding/beam_tree_data.h"

namespace ascope {
namespace {

QStringList toStringList(const std::vector<std::string>& items) {
  QStringList out;
  out.reserve(static_cast<int>(items.size()));
  for (const std::string& item : items) out.push_back(QString::fromStdString(item));
  return out;
}

QString titleOf(const AttentionAxes& axes, const std::string& group) {
  return QString::fromStdString(axes.title.empty() ? group : axes.title);
}

}  // namespace

QString attentionGroupTitle(const std::string& task, const std::string& group) {
  const TaskDescriptor* descriptor = TaskRegistry::instance().find(task);
  return titleOf(descriptor ? descriptor->attention_axes(group) : AttentionAxes{}, group);
}

AttentionPlotData toAttentionPlotData(const AttentionSnapshot& snapshot) {
  AttentionPlotData data;
  data.step = snapshot.step;
  // A snapshot of a task this build does not know still shows, with generic titles.
  const TaskDescriptor* task = TaskRegistry::instance().find(snapshot.task);
  for (const AttentionGroup& group : snapshot.groups) {
    AttentionPlotGroup out;
    const AttentionAxes axes = task ? task->attention_axes(group.name) : AttentionAxes{};
    out.name = titleOf(axes, group.name);
    out.query_title = QString::fromStdString(axes.query_title);
    out.key_title = QString::fromStdString(axes.key_title);
    out.causal = group.causal;
    if (group.row_predictions.size() == group.row_labels.size()) {
      out.row_predictions = toStringList(group.row_predictions);
    }
    const QStringList rows = toStringList(group.row_labels);
    const QStringList cols = toStringList(group.col_labels);
    out.layers.resize(static_cast<std::size_t>(std::max(0, group.layers)));
    for (int layer = 0; layer < group.layers; ++layer) {
      for (int head = 0; head < group.heads; ++head) {
        const std::size_t index = static_cast<std::size_t>(layer) * group.heads + head;
        if (index >= group.maps.size()) break;
        const AttentionMap& map = group.maps[index];
        LabeledMatrix matrix;
        matrix.rows = map.rows;
        matrix.cols = map.cols;
        matrix.values = map.values;
        // Labels only when they match the (padding-trimmed) matrix; indices otherwise.
        if (rows.size() == map.rows) matrix.row_labels = rows;
        if (cols.size() == map.cols) matrix.col_labels = cols;
        out.layers[static_cast<std::size_t>(layer)].push_back(std::move(matrix));
      }
    }
    data.groups.push_back(std::move(out));
  }
  const ImagePayload* image = snapshot.payloads.find<ImagePayload>();
  if (image != nullptr && image->grid_rows > 0 && image->grid_cols > 0) {
    data.image.image = toRgbImage(image->image);
    data.image.grid_rows = image->grid_rows;
    data.image.grid_cols = image->grid_cols;
    data.image.has_cls_token = image->has_cls;
  }
  if (const DecodingPayload* transcript = snapshot.payloads.find<DecodingPayload>()) {
    for (const DecodingStep& step : transcript->steps) {
      DecodingCandidates candidates;
      for (const auto& [token, probability] : step.top) {
        candidates.tokens.push_back(QString::fromStdString(token));
        candidates.probabilities.push_back(probability);
      }
      data.decoding.push_back(std::move(candidates));
    }
    data.decoder_fed_reference = transcript->fed_reference;
  }
  if (const BeamPayload* beam = snapshot.payloads.find<BeamPayload>()) {
    data.beam = std::make_shared<const BeamTreeData>(toBeamTreeData(*beam));
  }
  return data;
}

BeamTreeData toBeamTreeData(const BeamPayload& beam) {
  BeamTreeData tree;
  tree.width = beam.width;
  for (const BeamPayload::Node& n : beam.nodes) {
    BeamTreeData::Node node;
    node.step = n.step;
    node.parent = n.parent;
    node.token = QString::fromStdString(n.token);
    node.log_prob = n.log_prob;
    node.score = n.score;
    node.fate = n.fate == BeamPayload::Fate::kKept       ? BeamTreeData::Fate::Kept
                : n.fate == BeamPayload::Fate::kFinished ? BeamTreeData::Fate::Finished
                                                         : BeamTreeData::Fate::Pruned;
    tree.nodes.push_back(std::move(node));
  }
  for (const BeamPayload::Hypothesis& h : beam.hypotheses) {
    tree.hypotheses.push_back(
        {QString::fromStdString(h.text), h.score, h.node,
         std::make_shared<const AttentionPlotData>(toAttentionPlotData(h.attention))});
  }
  return tree;
}

}  // namespace ascope
