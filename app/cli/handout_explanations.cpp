#include "app/cli/handout_explanations.h"

#include <algorithm>
#include <utility>

#include "engine/analysis/attention_cell_breakdown.h"
#include "engine/inference/attention_explanation.h"
#include "engine/runfolder/run_reader.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope::cli {
namespace {

/// The run's own name of the group a person titled `asked` ("encoder self" → "encoder"), as the
/// page titles it; `asked` itself where no stored group has that title.
std::string groupNamed(const std::string& asked, const std::string& run_dir,
                       const TaskDescriptor* task) {
  const std::vector<AttentionFileEntry> files = listAttentionFiles(run_dir);
  if (files.empty() || task == nullptr || !task->attention_axes) return asked;
  Expected<ProbeSet> newest = readProbeSet(files.back().path);
  if (!newest.ok() || newest->samples.empty()) return asked;
  for (const AttentionGroup& g : newest->samples.front().groups) {
    if (g.name == asked) return asked;
  }
  for (const AttentionGroup& g : newest->samples.front().groups) {
    if (task->attention_axes(g.name).title == asked) return g.name;
  }
  return asked;
}

}  // namespace

Expected<std::vector<HandoutComputation>> explainForHandout(const std::string& run_dir,
                                                            std::vector<ExplainChoice> choices,
                                                            std::vector<std::string>& notes) {
  if (Status readable = checkRunFilesReadable(run_dir); !readable.ok()) {
    return Error{readable.error()};
  }
  Expected<TrainingConfig> config = readRunConfig(run_dir);
  if (!config.ok()) return Error{config.error()};
  if (choices.empty()) choices.push_back({"", "", 0, 0, -1, -1});  // unasked: named by nothing
  const TaskDescriptor* task = TaskRegistry::instance().find(config->task);
  AttentionExplainer explainer;  // one model for every head asked
  std::vector<HandoutComputation> out;
  for (const ExplainChoice& choice : choices) {
    const auto refused = [&choice](const std::string& why) {
      return choice.text.empty() ? Error{why} : Error{"--explain " + choice.text + ": " + why};
    };
    ExplainRequest request;
    request.run_dir = run_dir;
    request.checkpoint = CheckpointChoice::kNewest;  // the model as the run's last snapshot saw it
    // The sample the page shows first: the first probe sample, as its timeline does.
    request.sample = config->probe_samples.empty() ? 0 : config->probe_samples.front();
    request.group = choice.group.empty() ? "" : groupNamed(choice.group, run_dir, task);
    request.layer = choice.layer;
    request.head = choice.head;
    Expected<Explanation> explained = explainer.explain(request);
    if (!explained.ok()) return refused(explained.error());
    if (!explained->note.empty()) notes.push_back(explained->note);
    HandoutComputation computation{std::move(explained->computation), choice.query, choice.key};
    if (choice.query >= 0) {
      Expected<AttentionCellBreakdown> cell =
          breakDownCell(computation.computation, choice.query, choice.key);
      if (!cell.ok()) return refused(cell.error());
    } else {
      const ComputationCell strongest = strongestCell(computation.computation);
      computation.query = std::max(0, strongest.query);
      computation.key = std::max(0, strongest.key);
    }
    out.push_back(std::move(computation));
  }
  return out;
}

}  // namespace ascope::cli
