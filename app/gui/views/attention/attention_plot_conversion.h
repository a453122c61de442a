#pragma once
// The attention panel's one conversion: an engine snapshot (live, opened or read from the
// timeline) as the panel's AttentionPlotData, with the axis titles its task gives each group.
#include <QString>

#include <string>
#include <vector>

#include "engine/vocabulary/events.h"
#include "widgets/attention/attention_plot_data.h"

namespace ascope {

/// The snapshot's groups with their titles, and what its payloads show (each kind by its own
/// conversion, app/gui/views/payloads/attention_payload_conversions.h).
AttentionPlotData toAttentionPlotData(const AttentionSnapshot& snapshot);

/// A plot group named as `task` names the model's group `group` (its title, the model's own name
/// as id, the axis titles), with no matrices yet; an unknown task gets generic titles.
AttentionPlotGroup titledPlotGroup(const std::string& task, const std::string& group);

/// Tokens as the plot's labels.
QStringList toStringList(const std::vector<std::string>& items);

/// The group as the attention panel titles it for `task` ("encoder" → "encoder self"); the
/// Heads and Ablation docks name groups the same way, so a head picked there is found here.
QString attentionGroupTitle(const std::string& task, const std::string& group);

}  // namespace ascope
