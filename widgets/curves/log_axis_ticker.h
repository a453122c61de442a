#pragma once

#include "widgets/common/qcustomplot_include.h"

namespace ascope {

/// Ticks for a logarithmic axis that also label ranges narrower than a decade. QCPAxisTickerLog
/// labels powers of ten only, so a loss falling from 2.3 to 0.3 would show the single label "1";
/// this ticker picks 1-2-5 (or 1..9) mantissas by the number of decades shown, with the remaining
/// integer mantissas as sub ticks.
class LogAxisTicker : public QCPAxisTicker {
 public:
  LogAxisTicker() = default;

  /// Major tick values for the range (exposed for tests).
  static QVector<double> majorTicks(const QCPRange& range);

 protected:
  double getTickStep(const QCPRange& range) override;
  int getSubTickCount(double tick_step) override;
  QVector<double> createTickVector(double tick_step, const QCPRange& range) override;
  QVector<double> createSubTickVector(int sub_tick_count, const QVector<double>& ticks) override;

 private:
  QCPRange range_;  // the range of the last generate(), needed for sub ticks
};

}  // namespace ascope
