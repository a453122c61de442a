// One metric of two runs on one plot: a graph per run named in the legend, replaced as a whole,
// and the CSV export names the run of every point.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "widget_test_util.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/run_overlay_plot.h"

namespace ascope {

class RunOverlayPlotTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void namesEveryRunInTheLegend();
};

void RunOverlayPlotTest::namesEveryRunInTheLegend() {
  RunOverlayPlot plot(QStringLiteral("loss"));
  plot.setSeries({{QStringLiteral("A lr_a"), {{1, 0.9}, {2, 0.7}, {3, 0.6}}},
                  {QStringLiteral("B lr_b"), {{1, 0.95}, {2, 0.9}}}});
  QVERIFY(test::showAndSettle(&plot, QSize(600, 400)));
  QCOMPARE(plot.graphCount(), 2);
  QCOMPARE(plot.graph(0)->name(), QStringLiteral("A lr_a"));
  QCOMPARE(plot.graph(1)->data()->size(), 2);
  QVERIFY(plot.plot()->legend->visible());
  QCOMPARE(plot.plot()->legend->itemCount(), 2);
  QVERIFY(plot.graph(0)->pen().color() != plot.graph(1)->pen().color());
  QTemporaryDir dir;
  const QString csv = dir.filePath(QStringLiteral("loss.csv"));
  QVERIFY(plot.exportCsv(csv).ok());
  QFile file(csv);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(file.readAll());
  QCOMPARE(text.count(QStringLiteral("\"A lr_a\"")), 3);
  QCOMPARE(text.count(QStringLiteral("\"B lr_b\"")), 2);
  plot.setSeries({});
  QCOMPARE(plot.graphCount(), 0);
}

}  // namespace ascope

QTEST_MAIN(ascope::RunOverlayPlotTest)
#include "run_overlay_plot_test.moc"
