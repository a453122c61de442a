#include "app/gui/views/run/run_time_projection.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

#include "app/gui/views/run/run_progress_view.h"

namespace ascope {
namespace {

/// The recent steps whose median is the step time.
constexpr std::size_t kRecentSteps = 64;
/// A forward pass of a sample costs about a third of a training step's forward and backward.
constexpr double kForwardShare = 0.35;

QString tr(const char* text) {
  return QCoreApplication::translate("RunTimeProjection", text);
}

template <typename Gaps>
double medianSeconds(const Gaps& gaps) {
  std::vector<double> values;
  for (const auto& g : gaps) values.push_back(g.seconds);
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

}  // namespace

void RunTimeProjection::start(const TrainingConfig& config) {
  *this = RunTimeProjection{};
  config_ = config;
}

void RunTimeProjection::addSteps(const std::vector<StepMetrics>& steps) {
  for (const StepMetrics& m : steps) {
    if (last_ && m.step > last_->step && m.elapsed_s >= last_->elapsed_s) {
      const double gap =
          (m.elapsed_s - last_->elapsed_s) / static_cast<double>(m.step - last_->step);
      if (evaluated_at_ && last_->step >= *evaluated_at_) {
        takeEvaluationGap(gap);
      } else {
        recent_.push_back({m.step, gap});
        if (recent_.size() > kRecentSteps) recent_.pop_front();
        ++timed_steps_;
      }
    }
    if (last_ && m.epoch > last_->epoch && steps_per_epoch_ == 0) steps_per_epoch_ = last_->step;
    last_ = m;
  }
}

void RunTimeProjection::takeEvaluationGap(double gap) {
  // The gap after a validation pass is the pass, plus one step.
  const double pass = std::max(0.0, gap - stepSeconds());
  evaluation_s_ = evaluation_timed_ ? std::max(evaluation_s_, pass) : pass;
  evaluation_timed_ = true;
  evaluated_at_.reset();
}

void RunTimeProjection::addEvaluation(std::int64_t step) {
  ++evaluations_done_;
  // The steps after the pass may have come in the same drain, before the pass's report.
  for (auto it = recent_.begin(); it != recent_.end(); ++it) {
    if (it->step != step + 1) continue;
    const double gap = it->seconds;
    recent_.erase(it);
    --timed_steps_;
    takeEvaluationGap(gap);
    return;
  }
  evaluated_at_ = step;
}

double RunTimeProjection::stepSeconds() const {
  return medianSeconds(recent_);
}

double RunTimeProjection::evaluationSeconds() const {
  if (evaluation_timed_) return evaluation_s_;
  const double samples = config_.eval_max_samples > 0
                             ? config_.eval_max_samples
                             : static_cast<double>(config_.builtin.test_count);
  const double batches =
      samples / static_cast<double>(std::max<std::int64_t>(1, config_.batch_size));
  return batches * stepSeconds() * kForwardShare;
}

int RunTimeProjection::evaluationsLeft() const {
  if (!last_ || last_->total_steps <= 0) return 0;
  const std::int64_t per_epoch =
      steps_per_epoch_ > 0
          ? steps_per_epoch_
          : std::max<std::int64_t>(1, last_->total_steps / std::max(1, config_.epochs));
  // One at every epoch's end (the last step's included), more with eval_every_steps.
  const std::int64_t total_passes = (last_->total_steps + per_epoch - 1) / per_epoch;
  std::int64_t extra = 0;
  if (config_.eval_every_steps > 0) extra = last_->total_steps / config_.eval_every_steps;
  return static_cast<int>(std::max<std::int64_t>(0, total_passes + extra - evaluations_done_));
}

std::optional<double> RunTimeProjection::secondsLeft() const {
  if (!isTimed() || !last_) return std::nullopt;
  const double steps =
      static_cast<double>(std::max<std::int64_t>(0, last_->total_steps - last_->step));
  const double evaluations = evaluationsLeft() * evaluationSeconds();
  // The final test looks at the whole held-out split, which a pass may only sample.
  double test = evaluationSeconds();
  if (config_.data == "builtin" && config_.eval_max_samples > 0) {
    test *=
        std::max(1.0, static_cast<double>(config_.builtin.test_count) / config_.eval_max_samples);
  }
  return steps * stepSeconds() + evaluations + test;
}

std::optional<double> RunTimeProjection::totalSeconds() const {
  const std::optional<double> left = secondsLeft();
  if (!left || !last_) return std::nullopt;
  return last_->elapsed_s + *left;
}

QString RunTimeProjection::note() const {
  const std::optional<double> total = totalSeconds();
  if (!total || !last_) return {};
  const QString passes =
      evaluation_timed_
          ? tr("validation passes of %1 s each, timed").arg(evaluationSeconds(), 0, 'f', 1)
          : tr("validation passes of about %1 s each, estimated until the first is timed")
                .arg(evaluationSeconds(), 0, 'f', 1);
  return tr("timed over %1 steps on this device: %2 s a step; the run should take about %3 in "
            "all (%4 steps, %5, and the final test)")
      .arg(timed_steps_)
      .arg(stepSeconds(), 0, 'f', 3)
      .arg(RunProgressView::clock(*total))
      .arg(last_->total_steps)
      .arg(passes);
}

}  // namespace ascope
