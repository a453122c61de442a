#include "widgets/tables/head_stats_text.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace ascope {

QString headStatsStepText(std::int64_t step) {
  // A fixed English locale: the tooltips quote steps the log and the CLI print the same way.
  static const QLocale english(QLocale::English, QLocale::UnitedStates);
  return english.toString(static_cast<qlonglong>(step));
}

QString headStatsValueText(double value) {
  if (!std::isfinite(value)) return QStringLiteral("–");
  const double magnitude = std::abs(value);
  const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  QString text = QString::number(value, 'f', decimals);
  if (text.startsWith(QLatin1Char('-'))) text.replace(0, 1, QChar(0x2212));
  if (text == QStringLiteral("\u22120.00")) text = QStringLiteral("0.00");
  return text;
}

QString headStatsHeadName(const QString& group, int layer, int head) {
  return QCoreApplication::translate("ascope::HeadStatsGrid", "%1 layer %2 head %3")
      .arg(group)
      .arg(layer)
      .arg(head);
}

QString headStatsMetricLabel(const QString& metric) {
  QString label = metric;
  label.replace(QLatin1Char('_'), QLatin1Char(' '));
  return label;
}

}  // namespace ascope
