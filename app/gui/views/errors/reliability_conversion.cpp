#include "app/gui/views/errors/reliability_conversion.h"

namespace ascope {
namespace {

QVector<ReliabilityBar> barsOf(const CalibrationError& e) {
  QVector<ReliabilityBar> bars;
  bars.reserve(static_cast<int>(e.bins.size()));
  for (const ReliabilityBin& b : e.bins) {
    bars.append({b.lower, b.upper, b.count, b.confidence, b.accuracy});
  }
  return bars;
}

}  // namespace

ReliabilityDiagramData toReliabilityDiagramData(const AppliedCalibration& c) {
  ReliabilityDiagramData d;
  d.before = barsOf(c.before);
  d.after = barsOf(c.after);
  d.ece_before = c.before.ece;
  d.ece_after = c.after.ece;
  d.temperature = c.temperature;
  d.source = QString::fromStdString(c.source);
  return d;
}

}  // namespace ascope
