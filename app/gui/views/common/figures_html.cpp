#include "app/gui/views/common/figures_html.h"

#include <QStringList>

#include "engine/tasks/registry/task_registry.h"

namespace ascope {
namespace {

QString text(const std::string& s) {
  return QString::fromStdString(s).toHtmlEscaped();
}

/// The declarations of the figures present, declared ones in the task's order, others after.
std::vector<MetricInfo> shown(const std::string& task, const Figures& figures) {
  const std::vector<MetricInfo> declared = declaredMetrics(task);
  std::vector<MetricInfo> out;
  for (const MetricInfo& m : declared) {
    if (figures.has(m.key)) out.push_back(m);
  }
  for (const Figure& f : figures) {
    if (!findMetric(declared, f.key)) out.push_back(undeclaredMetric(f.key));
  }
  return out;
}

}  // namespace

QString figuresHtml(const std::string& task, const Figures& figures, FigureSelection selection) {
  QString out;
  for (const MetricInfo& m : shown(task, figures)) {
    if (selection == FigureSelection::kHeadline && !m.headline) continue;
    if (selection == FigureSelection::kTracked && !m.tracked) continue;
    if (selection == FigureSelection::kNotHeadline && m.headline) continue;
    const QString value = text(m.format(*figures.get(m.key)));
    out += QStringLiteral(" · %1 %2")
               .arg(text(m.title), m.headline ? QStringLiteral("<b>%1</b>").arg(value) : value);
  }
  return out;
}

QString figuresToolTip(const std::string& task, const Figures& figures) {
  QStringList lines;
  for (const MetricInfo& m : shown(task, figures)) {
    QString line = QStringLiteral("%1 %2").arg(
        QString::fromStdString(m.title), QString::fromStdString(m.format(*figures.get(m.key))));
    if (!m.description.empty())
      line += QStringLiteral(": ") + QString::fromStdString(m.description);
    lines << line;
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace ascope
