#include "app/gui/views/errors/error_analysis_conversion.h"

#include <QFileInfo>
#include <QObject>

#include "app/gui/views/common/figures_html.h"
#include "app/gui/views/errors/reliability_conversion.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/vocabulary/payloads/sample_input.h"

namespace ascope {

ErrorAnalysisData toErrorAnalysisData(const EvaluationReport& r) {
  ErrorAnalysisData d;
  const QString data = QFileInfo(QString::fromStdString(r.data)).fileName();
  d.title = QObject::tr("%1 split of %2 · %3 samples · weights of step %4")
                .arg(QString::fromStdString(r.split),
                     data.isEmpty() ? QString::fromStdString(r.data) : data)
                .arg(r.samples)
                .arg(r.step);
  const TaskDescriptor* task = TaskRegistry::instance().find(r.task);
  const QString accuracy = QString::fromStdString(
      task && !task->accuracy_name.empty() ? task->accuracy_name : std::string("accuracy"));
  // The headline first (in bold: the accuracy when the task has no other), the loss, macro F1
  // for a classifier, then every other figure of the split in small print.
  const QString headline = figuresHtml(r.task, r.figures, FigureSelection::kHeadline);
  d.summary = headline.isEmpty() ? QString() : headline.mid(3) + QStringLiteral(" · ");
  d.summary += QObject::tr("%1 %2 · loss %3")
                   .arg(accuracy.toHtmlEscaped(),
                        headline.isEmpty() ? QStringLiteral("<b>%1</b>").arg(r.accuracy, 0, 'f', 4)
                                           : QString::number(r.accuracy, 'f', 4))
                   .arg(r.loss, 0, 'f', 4);
  if (!r.classes.empty()) d.summary += QObject::tr(" · macro F1 %1").arg(r.macro_f1, 0, 'f', 4);
  if (r.calibration) {
    d.reliability = toReliabilityDiagramData(*r.calibration);
    d.summary += r.calibration->temperature == 1.0
                     ? QObject::tr(" · ECE %1").arg(r.calibration->after.ece, 0, 'f', 3)
                     : QObject::tr(" · ECE %1 (%2 before temperature %3)")
                           .arg(r.calibration->after.ece, 0, 'f', 3)
                           .arg(r.calibration->before.ece, 0, 'f', 3)
                           .arg(r.calibration->temperature, 0, 'g', 4);
  }
  const QString others = figuresHtml(r.task, r.figures, FigureSelection::kNotHeadline);
  if (!others.isEmpty()) d.summary += QStringLiteral("<br><small>%1</small>").arg(others.mid(3));
  if (task != nullptr) {
    const SampleTerms& t = task->sample_terms;
    d.terms = {QString::fromStdString(t.input), QString::fromStdString(t.expected),
               QString::fromStdString(t.answer), t.free_text};
  }
  if (!r.classes.empty()) {
    for (const std::string& c : r.classes) d.classes << QString::fromStdString(c);
    for (const std::vector<std::int64_t>& row : r.confusion) {
      QVector<qint64> counts;
      for (std::int64_t v : row) counts << v;
      d.confusion << counts;
    }
  }
  if (!r.split_origin.empty()) {
    d.summary += QStringLiteral("<br><small>%1</small>")
                     .arg(QString::fromStdString(r.split_origin).toHtmlEscaped());
  }
  d.samples.reserve(r.scored.size());
  for (const ScoredSample& s : r.scored) {
    ErrorAnalysisSample e;
    e.index = s.index;
    e.input = inputOf(s.prediction.payloads, {}).image == nullptr
                  ? QString::fromStdString(s.prediction.input)
                  : QObject::tr("image #%1").arg(s.index);
    e.truth = QString::fromStdString(s.prediction.expected);
    e.answer = QString::fromStdString(s.prediction.answer);
    e.probability = s.prediction.probability;
    e.loss = s.loss;
    e.correct = s.prediction.correct;
    e.true_class = s.true_class;
    e.predicted_class = s.predicted_class;
    d.samples.push_back(std::move(e));
  }
  return d;
}

}  // namespace ascope
