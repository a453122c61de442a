#pragma once
// ablation.csv: one line per evaluation of a head ablation, the baseline first.
//   group,layer,head,ablation,samples,loss,delta_loss,accuracy,delta_accuracy
// then two columns per figure the task tracks, `<key>,delta_<key>` (a translation's
// `bleu,delta_bleu`). The baseline has an empty group, layer and head -1; "drop layer" has head
// -1; a figure's cells are empty where a row lacks it. Deltas are the row minus the baseline.
#include <string>

#include "engine/runfolder/ablation/ablation_table.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// The columns every ablation.csv has; the figures' pairs follow.
inline constexpr char kAblationCsvHeader[] =
    "group,layer,head,ablation,samples,loss,delta_loss,accuracy,delta_accuracy";

/// The whole file's text, header line included.
std::string ablationCsv(const AblationTable& table);

/// Writes ablationCsv(table) to `path` atomically (a reader sees the old file or the new one).
Status writeAblationCsv(const std::string& path, const AblationTable& table);

/// The table of an ablation.csv (an opened run shows its last ablation again). Deltas are not
/// read: they follow from the rows. Errors name `path` and the line: no header, a malformed row,
/// no baseline, a figure column that is not `<key>,delta_<key>`, more than 100,000 rows or 16 MiB.
Expected<AblationTable> readAblationCsv(const std::string& path);

}  // namespace ascope
