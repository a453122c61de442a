#include "widgets/tables/head_ablation_measure.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace ascope {

HeadAblationMeasure HeadAblationMeasure::figureOf(const HeadAblationData& data, int index) {
  if (index < 0 || index >= static_cast<int>(data.figures.size())) return accuracy();
  return {Kind::Figure, index, data.figures[static_cast<std::size_t>(index)]};
}

int HeadAblationMeasure::id() const {
  switch (kind) {
    case Kind::Accuracy:
      return -1;
    case Kind::Loss:
      return -2;
    case Kind::Figure:
      return figure;
  }
  return -1;
}

HeadAblationMeasure HeadAblationMeasure::fromId(const HeadAblationData& data, int id) {
  if (id == -2) return loss();
  return figureOf(data, id);
}

QString headAblationMeasureName(const HeadAblationMeasure& measure) {
  switch (measure.kind) {
    case HeadAblationMeasure::Kind::Accuracy:
      return QCoreApplication::translate("ascope::HeadAblationTable", "Δ accuracy");
    case HeadAblationMeasure::Kind::Figure:
      return QStringLiteral("Δ ") + measure.info.title;
    case HeadAblationMeasure::Kind::Loss:
      return QCoreApplication::translate("ascope::HeadAblationTable", "Δ loss");
  }
  return {};
}

std::optional<double> headAblationDelta(const HeadAblationRow& row,
                                        const HeadAblationBaseline& baseline,
                                        const HeadAblationMeasure& measure) {
  switch (measure.kind) {
    case HeadAblationMeasure::Kind::Accuracy:
      return (row.accuracy - baseline.accuracy) * 100.0;
    case HeadAblationMeasure::Kind::Figure: {
      const auto at = static_cast<std::size_t>(measure.figure);
      if (at >= row.figures.size() || at >= baseline.figures.size()) return std::nullopt;
      if (!row.figures[at] || !baseline.figures[at]) return std::nullopt;
      return *row.figures[at] - *baseline.figures[at];
    }
    case HeadAblationMeasure::Kind::Loss:
      return row.loss - baseline.loss;
  }
  return std::nullopt;
}

double headAblationHarm(double delta, const HeadAblationMeasure& measure) {
  const bool lower_is_better =
      measure.kind == HeadAblationMeasure::Kind::Loss ||
      (measure.kind == HeadAblationMeasure::Kind::Figure && !measure.info.higher_is_better);
  return lower_is_better ? delta : -delta;
}

QString headAblationDeltaText(double delta, const HeadAblationMeasure& measure) {
  const bool loss = measure.kind == HeadAblationMeasure::Kind::Loss;
  const bool figure = measure.kind == HeadAblationMeasure::Kind::Figure;
  const int decimals = loss     ? (std::abs(delta) >= 10 ? 1 : 3)
                       : figure ? std::clamp(measure.info.decimals, 1, 4)
                                : 1;
  QString digits = QString::number(std::abs(delta), 'f', decimals);
  // Sign from the rounded text, so a change too small to show is neither "+" nor "−".
  const bool zero = digits.toDouble() == 0.0;
  const QString sign = zero ? QString() : delta < 0 ? QString(QChar(0x2212)) : QStringLiteral("+");
  const bool points = measure.kind == HeadAblationMeasure::Kind::Accuracy;
  return sign + digits + (points ? QStringLiteral(" pt") : QString());
}

}  // namespace ascope
