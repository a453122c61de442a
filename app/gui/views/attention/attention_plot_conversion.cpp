#include "app/gui/views/attention/attention_plot_conversion.h"

#include <QStringList>

#include "app/gui/views/payloads/attention_payload_conversions.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope {
namespace {

QString titleOf(const AttentionAxes& axes, const std::string& group) {
  return QString::fromStdString(axes.title.empty() ? group : axes.title);
}

/// The group's header fields as `task` (maybe null) names them.
AttentionPlotGroup titledPlotGroup(const TaskDescriptor* task, const std::string& group) {
  AttentionPlotGroup out;
  const AttentionAxes axes = task ? task->attention_axes(group) : AttentionAxes{};
  out.name = titleOf(axes, group);
  out.id = QString::fromStdString(group);
  out.query_title = QString::fromStdString(axes.query_title);
  out.key_title = QString::fromStdString(axes.key_title);
  return out;
}

}  // namespace

QStringList toStringList(const std::vector<std::string>& items) {
  QStringList out;
  out.reserve(static_cast<int>(items.size()));
  for (const std::string& item : items) out.push_back(QString::fromStdString(item));
  return out;
}

AttentionPlotGroup titledPlotGroup(const std::string& task, const std::string& group) {
  return titledPlotGroup(TaskRegistry::instance().find(task), group);
}

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
    AttentionPlotGroup out = titledPlotGroup(task, group.name);
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
  // What the snapshot carries besides the attention, each kind by its own conversion.
  for (const std::shared_ptr<const Payload>& payload : snapshot.payloads.all()) {
    for (const AttentionPayloadConversion& conversion : attentionPayloadConversions()) {
      if (conversion.kind == payload->kind()) conversion.apply(data, *payload);
    }
  }
  return data;
}

}  // namespace ascope
