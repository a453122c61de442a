#include "widgets/tables/head_ablation_measure.h"

#include <QCoreApplication>

#include <cmath>

namespace ascope {

QString headAblationMeasureName(HeadAblationMeasure measure) {
  switch (measure) {
    case HeadAblationMeasure::Accuracy:
      return QCoreApplication::translate("ascope::HeadAblationTable", "Δ accuracy");
    case HeadAblationMeasure::Bleu:
      return QCoreApplication::translate("ascope::HeadAblationTable", "Δ BLEU");
    case HeadAblationMeasure::Loss:
      return QCoreApplication::translate("ascope::HeadAblationTable", "Δ loss");
  }
  return {};
}

std::optional<double> headAblationDelta(const HeadAblationRow& row,
                                        const HeadAblationBaseline& baseline,
                                        HeadAblationMeasure measure) {
  switch (measure) {
    case HeadAblationMeasure::Accuracy:
      return (row.accuracy - baseline.accuracy) * 100.0;
    case HeadAblationMeasure::Bleu:
      if (!row.bleu || !baseline.bleu) return std::nullopt;
      return *row.bleu - *baseline.bleu;
    case HeadAblationMeasure::Loss:
      return row.loss - baseline.loss;
  }
  return std::nullopt;
}

double headAblationHarm(double delta, HeadAblationMeasure measure) {
  return measure == HeadAblationMeasure::Loss ? delta : -delta;
}

QString headAblationDeltaText(double delta, HeadAblationMeasure measure) {
  const bool loss = measure == HeadAblationMeasure::Loss;
  const int decimals = loss ? (std::abs(delta) >= 10 ? 1 : 3) : 1;
  QString digits = QString::number(std::abs(delta), 'f', decimals);
  // Sign from the rounded text, so a change too small to show is neither "+" nor "−".
  const bool zero = digits.toDouble() == 0.0;
  const QString sign = zero ? QString() : delta < 0 ? QString(QChar(0x2212)) : QStringLiteral("+");
  return sign + digits + (loss ? QString() : QStringLiteral(" pt"));
}

}  // namespace ascope
