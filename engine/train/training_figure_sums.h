#pragma once
// The training steps' figures since the last validation pass, for the epoch's line and event:
// their mean loss (per step) and their accuracy (correct over counted, so a batch of padding
// weighs nothing).
namespace ascope {

class TrainingFigureSums {
 public:
  void add(double loss, double correct, double counted) {
    loss_sum_ += loss;
    correct_ += correct;
    counted_ += counted;
    ++steps_;
  }
  /// 0 before any step.
  double meanLoss() const { return steps_ > 0 ? loss_sum_ / steps_ : 0; }
  double accuracy() const { return counted_ > 0 ? correct_ / counted_ : 0; }
  void reset() { *this = TrainingFigureSums(); }

 private:
  double loss_sum_ = 0, correct_ = 0, counted_ = 0, steps_ = 0;
};

}  // namespace ascope
