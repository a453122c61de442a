#include "app/gui/views/heads/ablation_conversion.h"

#include "app/gui/views/attention/attention_plot_conversion.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope {
namespace {

HeadAblationFigureValues valuesOf(const Figures& figures, const std::vector<std::string>& keys) {
  HeadAblationFigureValues values;
  for (const std::string& key : keys) values.push_back(figures.get(key));
  return values;
}

}  // namespace

HeadAblationData toHeadAblationData(const std::string& task, const AblationTable& table) {
  HeadAblationData data;
  const std::vector<MetricInfo> declared = declaredMetrics(task);
  const std::vector<std::string> keys = table.figureKeys();
  for (const std::string& key : keys) {
    const MetricInfo* known = findMetric(declared, key);
    const MetricInfo info = known ? *known : undeclaredMetric(key);
    data.figures.push_back({QString::fromStdString(info.key), QString::fromStdString(info.title),
                            info.better == Better::kHigher, info.decimals});
  }
  data.baseline.loss = table.baseline.loss;
  data.baseline.accuracy = table.baseline.accuracy;
  data.baseline.figures = valuesOf(table.baseline.figures, keys);
  data.baseline.samples = table.baseline.samples;
  for (const AblationRow& row : table.rows) {
    const std::optional<HeadAblationKind> kind =
        headAblationKindFromName(QString::fromStdString(row.ablation));
    if (!kind) continue;
    HeadAblationRow out;
    out.group = attentionGroupTitle(task, row.group);
    out.layer = row.layer;
    out.head = row.head;
    out.ablation = *kind;
    out.loss = row.loss;
    out.accuracy = row.accuracy;
    out.figures = valuesOf(row.figures, keys);
    data.rows.push_back(std::move(out));
  }
  return data;
}

}  // namespace ascope
