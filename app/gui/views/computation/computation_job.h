#pragma once
// The Computation view's worker: one head recomputed stage by stage (AttentionExplainer, which
// does tensor work and keeps the model it loaded) and converted for the view, off the GUI
// thread. One question at a time; a question asked meanwhile waits, and a newer one replaces it
// (the newest wins: stepping through heads skips the ones passed over). The explainer is only
// ever used by the one worker that runs, so it needs no lock.
#include <QString>

#include <memory>
#include <optional>

#include "app/gui/bridge/worker_job.h"
#include "engine/inference/attention_explanation.h"
#include "widgets/computation/computation_plot_data.h"

namespace ascope {

/// A question for the worker, with what the answer is to be compared with.
struct ComputationQuestion {
  ExplainRequest request;
  /// The step the window shows for a run's sample; -1 otherwise (see toComputationPlotData).
  long long shown_step = -1;
};

struct ComputationAnswer {
  ComputationQuestion question;
  std::shared_ptr<const AttentionComputation> computation;  ///< null when it failed
  std::shared_ptr<const ComputationPlotData> plot;
  QString error;
  QString note;
  /// The largest difference between the recomputed weights and the model's own map of the same
  /// head (-1: none to compare with).
  double recorded_difference = -1;
};

class ComputationJob : public WorkerJob {
  Q_OBJECT

 public:
  explicit ComputationJob(QObject* parent = nullptr);

  /// Asks `question` now, or after the running one (replacing any that waits).
  void ask(const ComputationQuestion& question);
  /// Questions asked and answers delivered (a replaced question is never answered).
  int asked() const { return asked_; }
  int answered() const { return answered_; }
  bool isBusy() const { return isRunning() || pending_.has_value(); }

 Q_SIGNALS:
  void computed(std::shared_ptr<const ComputationAnswer> answer);

 private:
  void launchQuestion(const ComputationQuestion& question);

  std::shared_ptr<AttentionExplainer> explainer_ = std::make_shared<AttentionExplainer>();
  std::optional<ComputationQuestion> pending_;
  int asked_ = 0;
  int answered_ = 0;
};

/// The worker's part: asks `explainer` and converts the answer (tests call it directly).
ComputationAnswer answerQuestion(AttentionExplainer& explainer,
                                 const ComputationQuestion& question);

}  // namespace ascope
