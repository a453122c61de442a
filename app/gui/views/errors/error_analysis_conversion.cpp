#include "app/gui/views/errors/error_analysis_conversion.h"

#include <QFileInfo>
#include <QObject>

namespace ascope {

ErrorAnalysisData toErrorAnalysisData(const EvaluationReport& r) {
  ErrorAnalysisData d;
  const QString data = QFileInfo(QString::fromStdString(r.data)).fileName();
  d.title = QObject::tr("%1 split of %2 · %3 samples · weights of step %4")
                .arg(QString::fromStdString(r.split),
                     data.isEmpty() ? QString::fromStdString(r.data) : data)
                .arg(r.samples)
                .arg(r.step);
  if (r.translation) {
    const TranslationFigures& t = *r.translation;
    d.summary = QObject::tr(
                    "BLEU <b>%1</b> (sacreBLEU: 13a, raw references; BP %2) · chrF %3 · "
                    "CER %4 · WER %5 · exact %6")
                    .arg(t.bleu, 0, 'f', 2)
                    .arg(t.brevity_penalty, 0, 'f', 3)
                    .arg(t.chrf, 0, 'f', 1)
                    .arg(t.cer, 0, 'f', 3)
                    .arg(t.wer, 0, 'f', 3)
                    .arg(t.exact_match, 0, 'f', 3);
  } else {
    d.summary = QObject::tr("accuracy <b>%1</b> · loss %2 · macro F1 %3")
                    .arg(r.accuracy, 0, 'f', 4)
                    .arg(r.loss, 0, 'f', 4)
                    .arg(r.macro_f1, 0, 'f', 4);
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
    e.input = s.prediction.image.pixels.empty() ? QString::fromStdString(s.prediction.text)
                                                : QObject::tr("image #%1").arg(s.index);
    e.truth = QString::fromStdString(s.prediction.true_label);
    e.answer = QString::fromStdString(s.prediction.predicted_label);
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
