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
/// The recent median's weight in a step's time; the run's average has the rest.
constexpr double kRecentWeight = 0.3;
/// A step longer than this many recent medians counts as this many in the run's average: a
/// pause, or a probe, is not a slower machine.
constexpr double kLongestStep = 4.0;
/// The margin for what the machine will do, as a share of the time left, at the run's start; it
/// narrows with the square root of the share of steps still to go.
constexpr double kMarginAtStart = 0.25;

QString trProjection(const char* text) {
  return QCoreApplication::translate("RunTimeProjection", text);
}

/// The middle value (the upper one of an even count); 0 for none.
double median(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

/// A figure of minutes or hours without trailing zeros: "2", "2.5".
QString shortNumber(double value) {
  return QString::number(value, 'g', 3);
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
        // The first steps warm caches and allocators up: the run's average starts after them.
        const double typical = recentMedian();
        const double counted = timed_steps_ < kTimedSteps ? 0
                               : typical > 0              ? std::min(gap, kLongestStep * typical)
                                                          : gap;
        summed_s_ += counted;
        if (timed_steps_ >= kTimedSteps) ++summed_steps_;
        recent_.push_back({m.step, gap, counted});
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
  // The median of the passes timed: one pass slowed by another program (the largest was kept
  // before) counted again for every pass still to come.
  passes_.push_back(pass);
  evaluation_s_ = median(passes_);
  evaluation_timed_ = true;
  evaluated_at_.reset();
}

void RunTimeProjection::addEvaluation(std::int64_t step) {
  ++evaluations_done_;
  // The steps after the pass may have come in the same drain, before the pass's report.
  for (auto it = recent_.begin(); it != recent_.end(); ++it) {
    if (it->step != step + 1) continue;
    const double gap = it->seconds;
    if (it->counted > 0) {
      summed_s_ = std::max(0.0, summed_s_ - it->counted);
      summed_steps_ = std::max<std::int64_t>(0, summed_steps_ - 1);
    }
    recent_.erase(it);
    --timed_steps_;
    takeEvaluationGap(gap);
    return;
  }
  evaluated_at_ = step;
}

double RunTimeProjection::recentMedian() const {
  std::vector<double> gaps;
  for (const Gap& g : recent_) gaps.push_back(g.seconds);
  return median(std::move(gaps));
}

double RunTimeProjection::runAverage() const {
  return summed_steps_ > 0 ? summed_s_ / static_cast<double>(summed_steps_) : 0;
}

double RunTimeProjection::stepSeconds() const {
  const double average = runAverage();
  if (average <= 0) return recentMedian();
  return kRecentWeight * recentMedian() + (1 - kRecentWeight) * average;
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

double RunTimeProjection::secondsLeftAt(double step_s, double evaluation_s) const {
  const double steps =
      static_cast<double>(std::max<std::int64_t>(0, last_->total_steps - last_->step));
  const double evaluations = evaluationsLeft() * evaluation_s;
  // The final test looks at the whole held-out split, which a pass may only sample.
  double test = evaluation_s;
  if (config_.data == "builtin" && config_.eval_max_samples > 0) {
    test *=
        std::max(1.0, static_cast<double>(config_.builtin.test_count) / config_.eval_max_samples);
  }
  return steps * step_s + evaluations + test;
}

std::optional<double> RunTimeProjection::secondsLeft() const {
  if (!isTimed() || !last_) return std::nullopt;
  return secondsLeftAt(stepSeconds(), evaluationSeconds());
}

std::optional<RunTimeProjection::Range> RunTimeProjection::rangeLeft() const {
  if (!isTimed() || !last_) return std::nullopt;
  const double step = stepSeconds();
  // The recent median and the run's average bound a step's time (apart while the machine's
  // load changes; the spread of single steps averages out over many and is left out: on a
  // loaded machine it made "about 4–28 min").
  const double fast = std::min({recentMedian(), runAverage(), step});
  const double slow = std::max({recentMedian(), runAverage(), step});
  // ... and the passes scale with it, widened to the fastest and slowest pass timed.
  const double evaluation = evaluationSeconds();
  double fast_pass = step > 0 ? evaluation * fast / step : evaluation;
  double slow_pass = step > 0 ? evaluation * slow / step : evaluation;
  if (!passes_.empty()) {
    fast_pass = std::min(fast_pass, *std::min_element(passes_.begin(), passes_.end()));
    slow_pass = std::max(slow_pass, *std::max_element(passes_.begin(), passes_.end()));
  }
  const double share_left =
      last_->total_steps > 0
          ? std::clamp(1.0 - static_cast<double>(last_->step) / last_->total_steps, 0.0, 1.0)
          : 1.0;
  const double margin = kMarginAtStart * std::sqrt(share_left);
  return Range{secondsLeftAt(fast, fast_pass) * (1 - margin),
               secondsLeftAt(slow, slow_pass) * (1 + margin)};
}

QString RunTimeProjection::rangeText(const Range& left) {
  const double low = std::max(0.0, std::min(left.low, left.high));
  const double high = std::max(0.0, std::max(left.low, left.high));
  const auto between = [](const QString& from, const QString& to, const QString& unit) {
    return from == to ? trProjection("about %1 %2").arg(from, unit)
                      : trProjection("about %1–%2 %3").arg(from, to, unit);
  };
  if (high < 90) {
    // Five-second steps: a finer figure would change at every update.
    const auto five = [](double s, bool up) {
      return QString::number(static_cast<int>(5 * (up ? std::ceil(s / 5) : std::floor(s / 5))));
    };
    return between(five(low, false), five(std::max(5.0, high), true), trProjection("s"));
  }
  if (high < 120 * 60) {
    const int from = static_cast<int>(std::floor(low / 60));
    const int to = static_cast<int>(std::ceil(high / 60));
    if (from < 1) return trProjection("under %1 min").arg(to);
    return between(QString::number(from), QString::number(to), trProjection("min"));
  }
  // Half hours.
  const double from = std::floor(low / 1800) / 2;
  const double to = std::ceil(high / 1800) / 2;
  return between(shortNumber(from), shortNumber(to), trProjection("h"));
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
          ? trProjection("validation passes of %1 s each, timed")
                .arg(evaluationSeconds(), 0, 'f', 1)
          : trProjection("validation passes of about %1 s each, estimated until the first is timed")
                .arg(evaluationSeconds(), 0, 'f', 1);
  return trProjection(
             "timed over %1 steps on this device: %2 s a step; the run should take about %3 in "
             "all (%4 steps, %5, and the final test)")
      .arg(timed_steps_)
      .arg(stepSeconds(), 0, 'f', 3)
      .arg(RunProgressView::clock(*total))
      .arg(last_->total_steps)
      .arg(passes);
}

}  // namespace ascope
