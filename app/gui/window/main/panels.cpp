#include "app/gui/window/main/panels.h"

#include "app/gui/views/attention/timeline/attention_timeline_view.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/decoding/decoding_step_view.h"
#include "widgets/encoding/positional_encoding_panel.h"
#include "widgets/samples/sample_panel.h"
#include "widgets/tables/error_analysis_panel.h"
#include "widgets/tables/head_ablation_table.h"
#include "widgets/tables/head_stats_grid_panel.h"

namespace ascope {

QList<Exportable*> Panels::exportables() const {
  QList<Exportable*> all{loss, accuracy, attention->panel(), positional_encoding, sample};
  // Decoding steps exist for translation only; an empty figure is no use on a slide.
  if (decoding != nullptr && decoding->stepCount() > 0) all.push_back(decoding);
  // Heads and ablation once they have something to show (issue 24: missing from the bundle).
  if (heads != nullptr && !heads->store().isEmpty()) all.push_back(heads);
  if (ablation != nullptr && !ablation->result().rows.empty()) all.push_back(ablation);
  // An evaluation's errors, once there is one.
  if (errors != nullptr && !errors->data().isEmpty()) all.push_back(errors);
  return all;
}

}  // namespace ascope
