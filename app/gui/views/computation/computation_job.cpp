#include "app/gui/views/computation/computation_job.h"

#include "app/gui/views/computation/computation_plot_conversion.h"

namespace ascope {

ComputationAnswer answerQuestion(AttentionExplainer& explainer,
                                 const ComputationQuestion& question) {
  ComputationAnswer answer;
  answer.question = question;
  Expected<Explanation> explained = explainer.explain(question.request);
  if (!explained.ok()) {
    answer.error = QString::fromStdString(explained.error());
    return answer;
  }
  const AttentionComputation& c = explained->computation;
  answer.recorded_difference = explained->largest_difference.value_or(-1);
  answer.note = QString::fromStdString(explained->note);
  const bool pretrained = !question.request.model_folder.empty();
  answer.plot = std::make_shared<const ComputationPlotData>(toComputationPlotData(
      c, QString::fromStdString(explained->answer), pretrained, question.shown_step));
  answer.computation =
      std::make_shared<const AttentionComputation>(std::move(explained->computation));
  return answer;
}

ComputationJob::ComputationJob(QObject* parent) : WorkerJob(parent) {}

void ComputationJob::ask(const ComputationQuestion& question) {
  ++asked_;
  if (isRunning()) {
    pending_ = question;
    return;
  }
  launchQuestion(question);
}

void ComputationJob::launchQuestion(const ComputationQuestion& question) {
  // Shared with the worker, which alone uses it while it runs (one worker at a time).
  std::shared_ptr<AttentionExplainer> explainer = explainer_;
  launch([explainer, question](const Post& post, const std::atomic<bool>*) {
    auto answer = std::make_shared<const ComputationAnswer>(answerQuestion(*explainer, question));
    post.finish([answer](WorkerJob& job) {
      auto& self = static_cast<ComputationJob&>(job);
      if (self.pending_) {
        // A newer question waits: this answer is already out of date.
        const ComputationQuestion next = *self.pending_;
        self.pending_.reset();
        self.launchQuestion(next);
        return;
      }
      ++self.answered_;
      Q_EMIT self.computed(answer);
    });
  });
}

}  // namespace ascope
