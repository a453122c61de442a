#include "widgets/curves/log_axis_ticker.h"

#include <cmath>

namespace ascope {
namespace {

// m * 10^e computed so that 3e-1 is exactly the double nearest 0.3 (3 * 0.1 is not), which keeps
// labels and comparisons clean.
double scaled(int m, int e) {
  return e >= 0 ? m * std::pow(10.0, e) : m / std::pow(10.0, -e);
}

QVector<int> mantissasFor(double decades) {
  if (decades <= 0.7) return {1, 2, 3, 4, 5, 6, 7, 8, 9};
  if (decades <= 1.6) return {1, 2, 3, 5};
  if (decades <= 3.2) return {1, 2, 5};
  return {1};
}

}  // namespace

QVector<double> LogAxisTicker::majorTicks(const QCPRange& range) {
  QVector<double> ticks;
  if (!(range.lower > 0) || !(range.upper > range.lower)) return ticks;
  const double decades = std::log10(range.upper / range.lower);
  const QVector<int> mantissas = mantissasFor(decades);
  // Very wide ranges: every n-th power of ten, so labels do not collide.
  const int decade_step = decades > 8 ? static_cast<int>(std::ceil(decades / 8)) : 1;
  const int first = static_cast<int>(std::floor(std::log10(range.lower)));
  const int last = static_cast<int>(std::ceil(std::log10(range.upper)));
  for (int e = first; e <= last; ++e) {
    if (e % decade_step != 0) continue;
    for (int m : mantissas) {
      const double v = scaled(m, e);
      if (v >= range.lower * (1 - 1e-9) && v <= range.upper * (1 + 1e-9)) ticks << v;
    }
  }
  return ticks;
}

double LogAxisTicker::getTickStep(const QCPRange& range) {
  range_ = range;
  return 1.0;  // not used: ticks are placed by createTickVector
}

int LogAxisTicker::getSubTickCount(double) {
  return 0;
}

QVector<double> LogAxisTicker::createTickVector(double, const QCPRange& range) {
  QVector<double> ticks = majorTicks(range);
  // Fewer than two labels tell nothing about the scale; fall back to evenly spaced values.
  if (ticks.size() < 2)
    ticks = QCPAxisTicker::createTickVector(QCPAxisTicker::getTickStep(range), range);
  return ticks;
}

QVector<double> LogAxisTicker::createSubTickVector(int, const QVector<double>& ticks) {
  QVector<double> sub;
  if (!(range_.lower > 0) || ticks.isEmpty()) return sub;
  const double decades = std::log10(range_.upper / range_.lower);
  if (decades > 8) return sub;
  const int first = static_cast<int>(std::floor(std::log10(range_.lower)));
  const int last = static_cast<int>(std::ceil(std::log10(range_.upper)));
  for (int e = first; e <= last; ++e)
    for (int m = 1; m <= 9; ++m) {
      const double v = scaled(m, e);
      bool major = false;
      for (double t : ticks) major |= std::abs(t - v) <= 1e-9 * v;
      if (!major) sub << v;
    }
  return sub;
}

}  // namespace ascope
