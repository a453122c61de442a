// The Errors dock's panel on made-up data: the confusion matrix as given, a click on a cell lists
// exactly its samples by loss, a click on a sample names it, translation has no matrix, and the
// CSV holds what is shown.
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/common/themed_plot.h"
#include "widgets/tables/confusion_matrix_view.h"
#include "widgets/tables/error_analysis_panel.h"
#include "widgets/tables/reliability_diagram_view.h"

namespace ascope {

namespace {

/// Three classes, 30 samples: sample i is of class i % 3, answered (i * 7) % 3 when i % 4 == 0,
/// else right; its loss rises with i.
ErrorAnalysisData threeClasses() {
  ErrorAnalysisData d;
  d.title = QStringLiteral("test split of shapes · 30 samples · weights of step 40");
  d.summary = QStringLiteral("accuracy <b>0.8</b>");
  d.classes = {QStringLiteral("circle"), QStringLiteral("square"), QStringLiteral("star")};
  d.confusion = QVector<QVector<qint64>>(3, QVector<qint64>(3, 0));
  for (int i = 0; i < 30; ++i) {
    ErrorAnalysisSample s;
    s.index = i;
    s.true_class = i % 3;
    s.predicted_class = i % 4 == 0 ? (i + 1) % 3 : i % 3;  // every fourth sample wrong
    s.truth = d.classes[s.true_class];
    s.answer = d.classes[s.predicted_class];
    s.correct = s.true_class == s.predicted_class;
    s.loss = 0.1 * i;
    s.probability = 0.5;
    s.input = QStringLiteral("image #%1").arg(i);
    ++d.confusion[s.true_class][s.predicted_class];
    d.samples.push_back(s);
  }
  return d;
}

}  // namespace

class ErrorAnalysisPanelTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void matrixShowsTheCountsAndACellListsItsSamples();
  void aSampleClickedIsNamed();
  void translationListsSentencesWithoutAMatrix();
  void csvHoldsTheMatrixAndTheListedSamples();
  void emptyShowsTheHint();
  void reliabilityDiagramShowsBothCalibrations();
};

void ErrorAnalysisPanelTest::matrixShowsTheCountsAndACellListsItsSamples() {
  ErrorAnalysisPanel panel;
  const ErrorAnalysisData data = threeClasses();
  panel.setData(data);
  ConfusionMatrixView* matrix = panel.matrix();
  QCOMPARE(matrix->rowCount(), 3);
  QCOMPARE(matrix->columnCount(), 3);
  for (int t = 0; t < 3; ++t) {
    for (int p = 0; p < 3; ++p) {
      QCOMPARE(matrix->item(t, p)->text().toLongLong(), data.confusion[t][p]);
    }
  }
  // A wrong cell is redder the larger its share of the row; the diagonal is not red.
  QVERIFY(matrix->shadeFor(0.5, false).red() > matrix->shadeFor(0.1, false).red() ||
          matrix->shadeFor(0.5, false).green() < matrix->shadeFor(0.1, false).green());
  // First the wrong answers, highest loss first.
  int wrong = 0;
  for (const ErrorAnalysisSample& s : data.samples) wrong += s.correct ? 0 : 1;
  QCOMPARE(panel.sampleList()->rowCount(), wrong);
  QVERIFY(panel.listTitle()->text().startsWith(QString::number(wrong) + QStringLiteral(" wrong")));
  for (std::size_t k = 1; k < panel.listed().size(); ++k) {
    QVERIFY(data.samples[panel.listed()[k - 1]].loss >= data.samples[panel.listed()[k]].loss);
  }
  // Clicking cell (true circle, answered square): exactly those samples.
  Q_EMIT matrix->cellClicked(0, 1);
  QCOMPARE(static_cast<qint64>(panel.listed().size()), data.confusion[0][1]);
  for (int i : panel.listed()) {
    QCOMPARE(data.samples[i].true_class, 0);
    QCOMPARE(data.samples[i].predicted_class, 1);
  }
  QVERIFY2(panel.listTitle()->text().contains(QStringLiteral("circle answered square")),
           qPrintable(panel.listTitle()->text()));
  // The diagonal lists right answers.
  Q_EMIT matrix->cellClicked(2, 2);
  QCOMPARE(static_cast<qint64>(panel.listed().size()), data.confusion[2][2]);
}

void ErrorAnalysisPanelTest::aSampleClickedIsNamed() {
  ErrorAnalysisPanel panel;
  panel.setData(threeClasses());
  QSignalSpy picked(&panel, &ErrorAnalysisPanel::samplePicked);
  Q_EMIT panel.sampleList()->cellClicked(0, 2);
  QCOMPARE(picked.size(), 1);
  QCOMPARE(picked.at(0).at(0).toInt(), panel.listed().front());
  QCOMPARE(panel.sampleList()->item(0, 0)->text(),
           QString::number(panel.data().samples[panel.listed().front()].index));
}

void ErrorAnalysisPanelTest::translationListsSentencesWithoutAMatrix() {
  ErrorAnalysisData d;
  d.title = QStringLiteral("test split of europarl.tsv · 2 samples");
  d.summary = QStringLiteral("BLEU <b>20.0</b>");
  d.terms = {QStringLiteral("source"), QStringLiteral("reference"), QStringLiteral("translation"),
             true};
  for (int i = 0; i < 2; ++i) {
    ErrorAnalysisSample s;
    s.index = i;
    s.input = QStringLiteral("the cat %1").arg(i);
    s.truth = QStringLiteral("il gatto %1").arg(i);
    s.answer = i == 0 ? s.truth : QStringLiteral("il cane");
    s.correct = i == 0;
    s.loss = 1.0 + i;
    d.samples.push_back(s);
  }
  ErrorAnalysisPanel panel;
  panel.show();
  panel.setData(d);
  QVERIFY(panel.matrix()->isHidden());
  QCOMPARE(panel.sampleList()->rowCount(), 1);
  QCOMPARE(panel.sampleList()->item(0, 3)->text(), QStringLiteral("il cane"));
  QCOMPARE(panel.sampleList()->item(0, 4)->text(), QStringLiteral("il gatto 1"));
  // Titled as the task names a sample's parts.
  QCOMPARE(panel.sampleList()->horizontalHeaderItem(2)->text(), QStringLiteral("source"));
  QCOMPARE(panel.sampleList()->horizontalHeaderItem(4)->text(), QStringLiteral("reference"));
  QVERIFY(panel.listTitle()->text().contains(QStringLiteral("answers not exactly right")));
}

void ErrorAnalysisPanelTest::csvHoldsTheMatrixAndTheListedSamples() {
  ErrorAnalysisPanel panel;
  const ErrorAnalysisData data = threeClasses();
  panel.setData(data);
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("errors.csv"));
  QVERIFY(panel.exportCsv(path).ok());
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
  QCOMPARE(lines[0], QStringLiteral("true\\answered,circle,square,star"));
  QCOMPARE(lines[1], QStringLiteral("circle,%1,%2,%3")
                         .arg(data.confusion[0][0])
                         .arg(data.confusion[0][1])
                         .arg(data.confusion[0][2]));
  QCOMPARE(lines[5], QStringLiteral("index,loss,true,answered,probability,correct,input"));
  QVERIFY(lines[6].startsWith(QString::number(data.samples[panel.listed().front()].index) +
                              QLatin1Char(',')));
  QVERIFY(panel
              .exportImage(dir.filePath(QStringLiteral("errors.png")), ImageFormat::Png,
                           ExportSize{640, 360, 1.0})
              .ok());
  QVERIFY(!panel.exportCsv(dir.filePath(QStringLiteral("no/such/folder/x.csv"))).ok());
}

void ErrorAnalysisPanelTest::emptyShowsTheHint() {
  ErrorAnalysisPanel panel;
  panel.show();
  QVERIFY(panel.data().isEmpty());
  QCOMPARE(panel.sampleList()->rowCount(), 0);
  QSignalSpy asked(&panel, &ErrorAnalysisPanel::evaluateRequested);
  panel.evaluateButton()->click();
  QCOMPARE(asked.size(), 1);
  panel.setMessage(QStringLiteral("Evaluating: 10 of 50…"));
  QVERIFY(panel.messageLabel()->isVisible());
}

/// Issue 56: a classifier's reliability diagram beside its matrix, bars at the temperature and
/// the model's own line, the ECE before → after in its title; none for a translation.
void ErrorAnalysisPanelTest::reliabilityDiagramShowsBothCalibrations() {
  ErrorAnalysisData data = threeClasses();
  for (int b = 0; b < 10; ++b) {
    const bool filled = b >= 5;
    data.reliability.after.append({b / 10.0, (b + 1) / 10.0, filled ? 6 : 0,
                                   filled ? b / 10.0 + 0.05 : 0.0, filled ? b / 10.0 : 0.0});
    data.reliability.before.append(
        {b / 10.0, (b + 1) / 10.0, b == 9 ? 30 : 0, b == 9 ? 0.99 : 0.0, b == 9 ? 0.8 : 0.0});
  }
  data.reliability.ece_before = 0.19;
  data.reliability.ece_after = 0.05;
  data.reliability.temperature = 2.5;
  data.reliability.source = QStringLiteral("temperature 2.5 from calibration.json");
  ErrorAnalysisPanel panel;
  panel.resize(900, 600);
  panel.show();
  panel.setData(data);
  ReliabilityDiagramView* diagram = panel.reliability();
  QVERIFY(diagram->isVisible());
  QCOMPARE(diagram->title(), QStringLiteral("ECE 0.190 → 0.050 at temperature 2.5"));
  QVERIFY(diagram->toolTip().contains(QStringLiteral("calibration.json")));
  // The diagonal, the bars (five filled bins) and the model's own line (one filled bin).
  ThemedPlot* plot = diagram->plot();
  QCOMPARE(plot->plottableCount(), 3);
  auto* bars = qobject_cast<QCPBars*>(plot->plottable(1));
  QVERIFY(bars != nullptr);
  QCOMPARE(bars->data()->size(), 5);
  QCOMPARE(plot->graph(1)->data()->size(), 1);
  // At temperature 1 there is nothing to compare: the bars alone.
  data.reliability.temperature = 1.0;
  panel.setData(data);
  QCOMPARE(diagram->title(), QStringLiteral("ECE 0.050"));
  QCOMPARE(diagram->plot()->plottableCount(), 2);
  // A task without class probabilities (a translation) has no diagram.
  data.reliability = ReliabilityDiagramData{};
  panel.setData(data);
  QVERIFY(diagram->isHidden());
}

}  // namespace ascope

QTEST_MAIN(ascope::ErrorAnalysisPanelTest)
#include "error_analysis_panel_test.moc"
