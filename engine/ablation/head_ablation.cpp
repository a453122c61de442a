#include "engine/ablation/head_ablation.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace ascope {
namespace {

/// Puts the sites' head masks back as they were, however the ablation ends.
class HeadMaskRestorer {
 public:
  explicit HeadMaskRestorer(std::vector<AttentionSite> sites) : sites_(std::move(sites)) {
    for (const AttentionSite& site : sites_) saved_.push_back(site.module->headMask());
  }
  ~HeadMaskRestorer() {
    for (std::size_t i = 0; i < sites_.size(); ++i) sites_[i].module->setHeadMask(saved_[i]);
  }
  HeadMaskRestorer(const HeadMaskRestorer&) = delete;
  HeadMaskRestorer& operator=(const HeadMaskRestorer&) = delete;

 private:
  std::vector<AttentionSite> sites_;
  std::vector<std::vector<bool>> saved_;
};

int headsOf(const AttentionSite& site) {
  return static_cast<int>(site.module->options().num_heads());
}

Status checkOptions(const AblationOptions& o) {
  if (o.samples < 1 || o.samples > 100000) {
    return Error{"samples must be 1 to 100000, got " + std::to_string(o.samples)};
  }
  if (o.figure_samples < 0 || o.figure_samples > 100000) {
    return Error{"decode samples must be 0 to 100000, got " + std::to_string(o.figure_samples)};
  }
  if (o.threads < 0) return Error{"threads must be 0 or more, got " + std::to_string(o.threads)};
  return {};
}

}  // namespace

Expected<AblationTable> ablateHeads(Task& task, const AblationOptions& options,
                                    const AblationProgress& progress) {
  if (Status s = checkOptions(options); !s.ok()) return Error{s.error()};
  if (task.validationSize() <= 0) return Error{"no validation samples to evaluate the heads on"};
  std::vector<AttentionSite> sites = task.attentionSites();
  if (sites.empty()) return Error{"this model has no attention heads to ablate"};

  int total = 1;
  for (const AttentionSite& site : sites) total += 2 * headsOf(site) + 1;
  const int samples = static_cast<int>(std::min<int64_t>(options.samples, task.validationSize()));
  int done = 0;
  int figure_samples = 0;  // what the task's settings say: the same for every evaluation
  const auto goOn = [&] { return !progress || progress(done, total); };

  try {
    HeadMaskRestorer restorer(sites);
    for (AttentionSite& site : sites) site.module->setHeadMask({});
    const auto evaluate = [&](const std::string& group, int layer, int head,
                              const std::string& ablation) {
      const EvaluationOutcome e =
          task.evaluate(DataSplit::kValidation, options.samples, FigureSamples::kAsSettingsSay);
      ++done;
      figure_samples = e.figure_samples;
      return AblationRow{group, layer, head, ablation, samples, e.loss, e.accuracy, e.figures};
    };

    AblationTable table;
    if (!goOn()) return Error{"cancelled"};
    table.baseline = evaluate("", -1, -1, kAblationNone);
    if (!table.baseline.figures.empty()) table.decoded_samples = figure_samples;
    if (!goOn()) return Error{"cancelled"};
    for (AttentionSite& site : sites) {
      const int heads = headsOf(site);
      for (int head = 0; head < heads; ++head) {
        std::vector<bool> keep(heads, true);
        keep[head] = false;
        site.module->setHeadMask(keep);
        table.rows.push_back(evaluate(site.group, site.layer, head, kAblationDropHead));
        if (!goOn()) return Error{"cancelled"};
      }
      for (int head = 0; head < heads; ++head) {
        std::vector<bool> keep(heads, false);
        keep[head] = true;
        site.module->setHeadMask(keep);
        table.rows.push_back(evaluate(site.group, site.layer, head, kAblationKeepOnlyHead));
        if (!goOn()) return Error{"cancelled"};
      }
      site.module->setHeadMask(std::vector<bool>(heads, false));
      table.rows.push_back(evaluate(site.group, site.layer, -1, kAblationDropLayer));
      site.module->setHeadMask({});
      if (!goOn()) return Error{"cancelled"};
    }
    return table;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"head ablation failed: " + what.substr(0, what.find('\n'))};
  }
}

}  // namespace ascope
