#include "app/gui/views/heads/ablation_conversion.h"

#include "app/gui/views/attention/attention_plot_conversion.h"

namespace ascope {

HeadAblationData toHeadAblationData(const std::string& task, const AblationTable& table) {
  HeadAblationData data;
  data.baseline.loss = table.baseline.loss;
  data.baseline.accuracy = table.baseline.accuracy;
  data.baseline.bleu = table.baseline.bleu;
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
    out.bleu = row.bleu;
    data.rows.push_back(std::move(out));
  }
  return data;
}

}  // namespace ascope
