#pragma once
// One head of one attention site recomputed stage by stage from what the site was given on a
// forward pass, with the module's own weights: the numbers of the Computation view. LibTorch
// side: included by engine .cpp files only; call it off the GUI thread.
#include <functional>
#include <string>
#include <vector>

#include "engine/tasks/task.h"
#include "engine/vocabulary/attention_computation.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// The tokens of the site's queries and keys in the forward pass, as its attention labels them.
struct StageLabels {
  std::vector<std::string> queries;  ///< the first queries.size() of the input's queries
  std::vector<std::string> keys;     ///< keys key_offset .. key_offset + keys.size() - 1
  /// A task that shows a window of the keys (AttentionGroup::col_offset): where it starts.
  int key_offset = 0;
};

/// Runs `forward` (which must pass through `site` once or more; the last pass counts) with the
/// site's inputs recorded, then recomputes `head` for batch row 0, cut to the sizes of the labels
/// `forward` returns (the probe's own cut of the padding). Fills every field of
/// AttentionComputation but the run's (task, step, weights_file, sample_index, input). An error
/// names a head out of range or a site the forward pass did not reach.
Expected<AttentionComputation> computeAttentionStages(
    const AttentionSite& site, int head, const std::function<Expected<StageLabels>()>& forward);

/// The site of `sites` in group `group` at `layer`; an error lists the groups and layers there
/// are.
Expected<AttentionSite> findAttentionSite(const std::vector<AttentionSite>& sites,
                                          const std::string& group, int layer);

}  // namespace ascope
