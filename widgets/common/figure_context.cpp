#include "widgets/common/figure_context.h"

#include <QJsonValue>
#include <QObject>
#include <QStringList>

namespace ascope {

QString FigureContext::titlePrefix() const {
  QStringList parts;
  if (!run.isEmpty()) parts << run;
  if (step >= 0) parts << QObject::tr("step %1").arg(step);
  return parts.join(QStringLiteral(" · "));
}

QString FigureContext::title(const QString& title) const {
  const QString prefix = titlePrefix();
  if (prefix.isEmpty()) return title;
  return title.isEmpty() ? prefix : prefix + QStringLiteral(" · ") + title;
}

QString FigureContext::stepSuffix() const {
  return step >= 0 ? QStringLiteral("_step%1").arg(step) : QString();
}

QJsonObject FigureContext::toJson() const {
  QJsonObject json;
  json.insert(QStringLiteral("run"), run);
  json.insert(QStringLiteral("task"), task);
  json.insert(QStringLiteral("step"), step >= 0 ? QJsonValue(double(step)) : QJsonValue());
  json.insert(QStringLiteral("probe_sample"), probe_sample);
  return json;
}

QString FigureContext::slug(const QString& text) {
  QString out;
  bool gap = false;
  for (const QChar c : text.toLower()) {
    if ((c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
        (c >= QLatin1Char('0') && c <= QLatin1Char('9'))) {
      if (gap && !out.isEmpty()) out += QLatin1Char('_');
      out += c;
      gap = false;
    } else {
      gap = true;
    }
  }
  return out.isEmpty() ? QStringLiteral("figure") : out;
}

}  // namespace ascope
