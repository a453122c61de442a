#pragma once
// What the Errors dock shows of a run scored on a data set: plain Qt values, filled by the app
// from the engine's evaluation report (app/gui/views/errors/error_analysis_conversion.h).
#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

#include "widgets/tables/reliability_diagram_data.h"

namespace ascope {

/// One scored sample: what it was, what the model answered, how wrong.
struct ErrorAnalysisSample {
  qint64 index = 0;        ///< within the scored split
  QString input;           ///< the review, the source sentence, or "image #index"
  QString truth;           ///< the right answer: a class name, a reference translation
  QString answer;          ///< the model's answer
  double probability = 0;  ///< of the answer (classification), at the run's temperature
  double loss = 0;
  bool correct = false;
  int true_class = -1;  ///< classification: row of the confusion matrix; -1 otherwise
  int predicted_class = -1;
};

/// What the task calls a sample's parts, and how its answers read.
struct ErrorAnalysisTerms {
  QString input = QStringLiteral("input");      ///< "review", "source"
  QString truth = QStringLiteral("true");       ///< "label", "reference"
  QString answer = QStringLiteral("answered");  ///< "answer", "translation"
  /// Answers are free text (a translation): listed beside the input, without a probability.
  bool free_text = false;
};

struct ErrorAnalysisData {
  QString title;    ///< "test split of reviews.csv · 2,500 samples · best weights, step 1200"
  QString summary;  ///< rich text: the task's figures (accuracy and macro F1, BLEU, …)
  ErrorAnalysisTerms terms;
  QStringList classes;                       ///< a classifier's; empty for any other task
  QVector<QVector<qint64>> confusion;        ///< [true][predicted] counts
  std::vector<ErrorAnalysisSample> samples;  ///< every scored sample, in split order
  /// A classifier's calibration: empty for a task without class probabilities.
  ReliabilityDiagramData reliability;

  bool hasClasses() const { return !classes.isEmpty(); }
  bool isEmpty() const { return samples.empty(); }
};

}  // namespace ascope
