#pragma once
// What the Errors dock's reliability diagram draws (issue 56): per equal-width confidence bin the
// mean confidence, the accuracy and the count, before and after the run's temperature, with the
// expected calibration error of each. Plain Qt values, filled by the app from the engine's
// evaluation report.
#include <QString>
#include <QVector>

namespace ascope {

struct ReliabilityBar {
  double lower = 0;  ///< the bin's confidences, from…
  double upper = 0;  ///< …to
  qint64 count = 0;
  double confidence = 0;  ///< mean confidence of its samples
  double accuracy = 0;    ///< share right
};

struct ReliabilityDiagramData {
  QVector<ReliabilityBar> before;  ///< the model's own probabilities
  QVector<ReliabilityBar> after;   ///< at `temperature` (the probabilities the dock lists)
  double ece_before = 0;
  double ece_after = 0;
  double temperature = 1;
  QString source;  ///< where the temperature came from, for the tooltip

  bool isEmpty() const { return after.isEmpty(); }
};

}  // namespace ascope
