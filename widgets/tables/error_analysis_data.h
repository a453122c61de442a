#pragma once
// What the Errors dock shows of a run scored on a data set: plain Qt values, filled by the app
// from the engine's evaluation report (app/gui/views/errors/error_analysis_conversion.h).
#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

namespace ascope {

/// One scored sample: what it was, what the model answered, how wrong.
struct ErrorAnalysisSample {
  qint64 index = 0;        ///< within the scored split
  QString input;           ///< the review, the source sentence, or "image #index"
  QString truth;           ///< class name or reference translation
  QString answer;          ///< class name or the model's translation
  double probability = 0;  ///< of the answer (classification)
  double loss = 0;
  bool correct = false;
  int true_class = -1;  ///< classification: row of the confusion matrix; -1 for translation
  int predicted_class = -1;
};

struct ErrorAnalysisData {
  QString title;        ///< "test split of reviews.csv · 2,500 samples · best weights, step 1200"
  QString summary;      ///< rich text: the figures (accuracy, macro F1, or BLEU, chrF, …)
  QStringList classes;  ///< classification; empty for translation
  QVector<QVector<qint64>> confusion;        ///< [true][predicted] counts
  std::vector<ErrorAnalysisSample> samples;  ///< every scored sample, in split order

  bool isTranslation() const { return classes.isEmpty(); }
  bool isEmpty() const { return samples.empty(); }
};

}  // namespace ascope
