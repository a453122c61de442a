// MetricCurvePanel: data reaches the graphs, rendering, smoothing, log scale, bounded history,
// batching of replots, follow/reset, hover text, CSV and image export, the test marker.

#include "widgets/curves/metric_curve_panel.h"
#include "widget_test_util.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/log_axis_ticker.h"

#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWheelEvent>

using namespace ascope;

class MetricCurvePanelTest : public QObject {
  Q_OBJECT

 private:
  static void fill(MetricCurvePanel& panel, int steps) {
    std::vector<SeriesPoint> points;
    for (int s = 1; s <= steps; ++s)
      points.push_back({double(s), 2.0 * std::exp(-s / 300.0) + 0.3});
    panel.appendTrainPoints(points);
    for (int s = 250; s <= steps; s += 250)
      panel.appendValidationPoint(s, 2.0 * std::exp(-s / 320.0) + 0.4);
  }

 private Q_SLOTS:
  void cursorMarksTheStepAndClicksPickSteps() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    panel.resize(700, 400);
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 1000);
    test::settle();
    QCOMPARE(panel.cursorStep(), -1.0);
    panel.setCursorStep(400);
    test::settle();
    QCOMPARE(panel.cursorStep(), 400.0);
    // The cursor is drawn: a column of the plot at step 400 differs from one beside it.
    QCustomPlot* plot = panel.plot();
    const int x = qRound(plot->xAxis->coordToPixel(400));
    const QImage image = plot->toPixmap().toImage();
    const int y = plot->axisRect()->rect().center().y();
    QVERIFY(image.pixel(x, y) != image.pixel(x + 15, y));

    QSignalSpy picked(&panel, &MetricCurvePanel::stepPicked);
    const QPoint at(qRound(plot->xAxis->coordToPixel(700)), y);
    QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, at);
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, at);
    QCOMPARE(picked.size(), 1);
    QVERIFY(std::abs(picked[0][0].toDouble() - 700) < 5);
    // Dragging the cursor scrubs (one pick per move), without panning the view.
    const QCPRange before = plot->xAxis->range();
    const QPoint grab(x, y);
    QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, grab);
    QMouseEvent move(QEvent::MouseMove, QPointF(x + 80, y), plot->mapToGlobal(QPointF(x + 80, y)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(plot, &move);
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, QPoint(x + 80, y));
    QVERIFY(picked.size() >= 3);
    QVERIFY(panel.cursorStep() > 400);
    QCOMPARE(plot->xAxis->range().lower, before.lower);
    panel.setCursorStep(-1);
    QCOMPARE(panel.cursorStep(), -1.0);
  }

  void graphsHoldTheAppendedPoints() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 1000);
    test::settle();
    QCOMPARE(panel.trainGraph()->dataCount(), 1000);
    QCOMPARE(panel.smoothedGraph()->dataCount(), 1000);
    QCOMPARE(panel.validationGraph()->dataCount(), 4);
    QCOMPARE(panel.plot()->yAxis->label(), QStringLiteral("loss"));
    QVERIFY(!panel.plot()->isEmptyState());
    // following: the x axis shows every step
    QVERIFY(panel.plot()->xAxis->range().contains(1.0));
    QVERIFY(panel.plot()->xAxis->range().contains(1000.0));
  }

  void rendersCurvesInThePlotArea() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 1000);
    test::settle();
    panel.plot()->replot();
    const QImage image = panel.plot()->grab().toImage();
    const QRect area = panel.plot()->axisRect()->rect().adjusted(2, 2, -2, -2);
    QVERIFY(!test::isUniform(image, area));
    const PlotTheme& theme = panel.plot()->theme();
    QVERIFY(test::countPixelsNear(image, area, theme.smoothed, 40) > 200);
    QVERIFY(test::countPixelsNear(image, area, theme.validation, 40) > 50);
  }

  void emptyPanelShowsHintInsteadOfAxes() {
    MetricCurvePanel panel(QStringLiteral("accuracy"));
    QVERIFY(test::showAndSettle(&panel));
    QVERIFY(panel.plot()->isEmptyState());
    const QImage image = panel.plot()->grab().toImage();
    // no axes or ticks along the left and bottom edges, text only in the middle
    QVERIFY(test::isUniform(image, QRect(0, 0, 60, image.height())));
    QVERIFY(test::isUniform(image, QRect(0, image.height() - 60, image.width(), 60)));
    QVERIFY(!test::isUniform(image, QRect(0, image.height() / 2 - 20, image.width(), 40)));
    panel.appendTrainPoint(1, 0.5);
    test::settle();
    QVERIFY(!panel.plot()->isEmptyState());
    panel.clear();
    test::settle();
    QVERIFY(panel.plot()->isEmptyState());
    QCOMPARE(panel.trainGraph()->dataCount(), 0);
  }

  void smoothedSeriesIsTheDebiasedEma() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    panel.setSmoothing(0.5);
    panel.appendTrainPoint(1, 1.0);
    panel.appendTrainPoint(2, 2.0);
    panel.appendTrainPoint(3, 3.0);
    std::vector<SeriesPoint> s = panel.smoothedSeries().points();
    QCOMPARE(s.size(), size_t(3));
    QCOMPARE(s[0].y, 1.0);
    QVERIFY(qFuzzyCompare(s[1].y, 1.25 / 0.75));
    QVERIFY(qFuzzyCompare(s[2].y, 2.125 / 0.875));
    // changing the weight recomputes from the kept raw points
    panel.setSmoothing(0.0);
    s = panel.smoothedSeries().points();
    QCOMPARE(s[1].y, 2.0);
    QCOMPARE(s[2].y, 3.0);
  }

  void logScaleToggle() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 500);
    QSignalSpy spy(&panel, &MetricCurvePanel::logScaleChanged);
    auto* box = panel.findChild<QCheckBox*>();
    QVERIFY(box);
    box->setChecked(true);  // the user ticks "Log scale"
    QVERIFY(panel.logScale());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(panel.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    test::settle();
    QVERIFY(panel.plot()->yAxis->range().lower > 0);
    panel.setLogScale(false);
    QVERIFY(!box->isChecked());
    QCOMPARE(panel.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    QCOMPARE(spy.count(), 2);
  }

  void logTickerLabelsRangesNarrowerThanADecade() {
    QCOMPARE(LogAxisTicker::majorTicks(QCPRange(0.18, 4.5)),
             QVector<double>({0.2, 0.3, 0.5, 1, 2, 3}));
    QCOMPARE(LogAxisTicker::majorTicks(QCPRange(0.01, 1)),
             QVector<double>({0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}));
    QCOMPARE(LogAxisTicker::majorTicks(QCPRange(0.001, 10)),
             QVector<double>({0.001, 0.01, 0.1, 1, 10}));
    QCOMPARE(LogAxisTicker::majorTicks(QCPRange(1e-6, 100)).size(), 9);  // powers of ten only
  }

  void longRunsStayBoundedAndKeepEnds() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    std::vector<SeriesPoint> batch;
    for (int s = 0; s < 200000; ++s) batch.push_back({double(s), 1.0 / (1 + s)});
    panel.appendTrainPoints(batch);
    test::settle();
    const int kept = panel.trainSeries().size();
    QVERIFY(kept <= 20480);
    QCOMPARE(panel.trainGraph()->dataCount(), kept);
    QCOMPARE(panel.trainGraph()->data()->constBegin()->key, 0.0);
    QCOMPARE((panel.trainGraph()->data()->constEnd() - 1)->key, 199999.0);
  }

  void manyAppendsCostOneReplot() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    QVERIFY(test::showAndSettle(&panel));
    QSignalSpy replots(panel.plot(), &QCustomPlot::afterReplot);
    for (int s = 0; s < 1000; ++s) panel.appendTrainPoint(s, 1.0);
    QCOMPARE(replots.count(), 0);  // nothing drawn synchronously
    test::settle();
    QCOMPARE(replots.count(), 1);
    QCOMPARE(panel.trainGraph()->dataCount(), 1000);
  }

  void zoomStopsFollowingAndDoubleClickResets() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 500);
    test::settle();
    QVERIFY(panel.isFollowing());
    const QPoint center = panel.plot()->axisRect()->rect().center();
    QWheelEvent wheel(center, panel.plot()->mapToGlobal(center), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(panel.plot(), &wheel);
    QVERIFY(!panel.isFollowing());
    const QCPRange zoomed = panel.plot()->xAxis->range();
    panel.appendTrainPoint(5000, 0.3);
    test::settle();
    QCOMPARE(panel.plot()->xAxis->range(), zoomed);  // the user's view is kept
    QTest::mouseDClick(panel.plot(), Qt::LeftButton, Qt::NoModifier, center);
    test::settle();
    QVERIFY(panel.isFollowing());
    QVERIFY(panel.plot()->xAxis->range().contains(5000.0));
  }

  void hoverShowsStepAndValueOfNearestPoint() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 1000);
    test::settle();
    panel.plot()->replot();
    const double value = 2.0 * std::exp(-500 / 320.0) + 0.4;
    const QPoint pos(qRound(panel.plot()->xAxis->coordToPixel(500)),
                     qRound(panel.plot()->yAxis->coordToPixel(value)));
    const QString text = panel.hoverText(pos + QPoint(2, -1));
    QVERIFY2(text.contains(QStringLiteral("step 500")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("validation")), qPrintable(text));
    QVERIFY2(text.contains(QString::number(value, 'g', 4)), qPrintable(text));
    QVERIFY(panel.hoverText(QPoint(1, 1)).isEmpty());
  }

  void followsPaletteChanges() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 100);
    QPalette dark = panel.palette();
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    panel.setPalette(dark);  // what a system switch to dark mode does to every widget
    test::settle();
    const PlotTheme& theme = panel.plot()->theme();
    QVERIFY(theme.dark);
    QCOMPARE(theme.background, QColor(0x1e, 0x1f, 0x22));
    QCOMPARE(panel.plot()->axisRect()->backgroundBrush().color(), QColor(0x1e, 0x1f, 0x22));
    QCOMPARE(panel.plot()->xAxis->tickLabelColor(), QColor(0xe6, 0xe6, 0xe6));
    QCOMPARE(panel.smoothedGraph()->pen().color(), theme.smoothed);
    panel.plot()->replot();
    const QImage image = panel.plot()->grab().toImage();
    QCOMPARE(image.pixelColor(panel.plot()->axisRect()->rect().topLeft() + QPoint(3, 3)),
             QColor(0x1e, 0x1f, 0x22));
  }

  void testPointIsOneLabelledMarkerOfItsOwn() {
    MetricCurvePanel panel(QStringLiteral("accuracy"));
    panel.resize(700, 400);
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 1000);
    test::settle();
    QVERIFY(!panel.hasTestPoint());
    QVERIFY(!panel.plot()->legend->hasItemWithPlottable(panel.testGraph()));
    QVERIFY(!panel.testLabel()->visible());

    panel.setTestPoint(750, 0.62);
    test::settle();
    QVERIFY(panel.hasTestPoint());
    QCOMPARE(panel.testGraph()->dataCount(), 1);
    QCOMPARE(panel.testGraph()->data()->constBegin()->key, 750.0);
    QCOMPARE(panel.testGraph()->data()->constBegin()->value, 0.62);
    QCOMPARE(panel.validationGraph()->dataCount(), 4);  // not one more validation point
    QVERIFY(panel.testLabel()->visible());
    QCOMPARE(panel.testLabel()->text(), QStringLiteral("test 0.62"));
    // The label hides none of the curves' end: neither the last validation point, nor the
    // smoothed curve's last point, nor the marker itself (it sat left of the marker, over the
    // last 15-25 % of the curves).
    panel.plot()->replot();
    const QRectF label(panel.testLabel()->topLeft->pixelPosition(),
                       panel.testLabel()->bottomRight->pixelPosition());
    const auto pixel = [&](double step, double value) {
      return QPointF(panel.plot()->xAxis->coordToPixel(step),
                     panel.plot()->yAxis->coordToPixel(value));
    };
    const auto last = [](QCPGraph* g) { return *(g->data()->constEnd() - 1); };
    const QCPGraphData validation = last(panel.validationGraph());
    const QCPGraphData smoothed = last(panel.smoothedGraph());
    QVERIFY(!label.contains(pixel(validation.key, validation.value)));
    QVERIFY(!label.contains(pixel(smoothed.key, smoothed.value)));
    QVERIFY(!label.contains(pixel(750, 0.62)));
    QVERIFY(panel.plot()->axisRect()->rect().contains(label.toRect()));
    QVERIFY(panel.plot()->legend->hasItemWithPlottable(panel.testGraph()));
    // Drawn in a colour of its own, and named when hovered.
    const PlotTheme& theme = panel.plot()->theme();
    QVERIFY(panel.testGraph()->pen().color() != theme.validation);
    panel.plot()->replot();
    const QImage image = panel.plot()->grab().toImage();
    const QRect area = panel.plot()->axisRect()->rect();
    QVERIFY(test::countPixelsNear(image, area, panel.testGraph()->pen().color(), 30) > 40);
    const QPoint marker(qRound(panel.plot()->xAxis->coordToPixel(750)),
                        qRound(panel.plot()->yAxis->coordToPixel(0.62)));
    const QString hover = panel.hoverText(marker);
    QVERIFY2(hover.contains(QStringLiteral("test split")), qPrintable(hover));
    QVERIFY2(hover.contains(QStringLiteral("step 750")), qPrintable(hover));

    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("accuracy.csv"));
    QVERIFY(panel.exportCsv(csv).ok());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.last(), QStringLiteral("test,750,0.62"));

    panel.clear();
    test::settle();
    QVERIFY(!panel.hasTestPoint());
    QCOMPARE(panel.testGraph()->dataCount(), 0);
    QVERIFY(!panel.testLabel()->visible());
  }

  void exportsCsvAndImage() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 100);
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("loss.csv"));
    QVERIFY(panel.exportCsv(csv).ok());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("series,step,loss"));
    QCOMPARE(lines.size(), 1 + 100 + 100 + 0);  // no validation point before step 250
    QCOMPARE(lines[1],
             QStringLiteral("train,1,%1").arg(2.0 * std::exp(-1 / 300.0) + 0.3, 0, 'g', 9));
    QVERIFY(lines.last().startsWith(QStringLiteral("train_smoothed,100,")));
    const QString png = dir.filePath(QStringLiteral("loss.png"));
    QVERIFY(panel.exportImage(png, ImageFormat::Png, {1200, 700, 1.0}).ok());
    QCOMPARE(QImage(png).size(), QSize(1200, 700));
    QCOMPARE(panel.exportBaseName(), QStringLiteral("loss"));
  }

  // In a narrow dock (a projector at 150 %, a zoomed font) the legend cut its entries
  // to "tr", "train (smo"; it wraps into rows instead, and back into one row when there is room.
  void narrowLegendWrapsInsteadOfCutting() {
    MetricCurvePanel panel(QStringLiteral("loss"));
    panel.resize(900, 400);
    QVERIFY(test::showAndSettle(&panel));
    fill(panel, 300);
    test::settle();
    QCPLegend* legend = panel.plot()->legend;
    const auto all_fit = [legend] {
      for (int i = 0; i < legend->itemCount(); ++i) {
        const QCPAbstractLegendItem* item = legend->item(i);
        if (item != nullptr && item->rect().width() < item->minimumOuterSizeHint().width() -
                                                          item->margins().left() -
                                                          item->margins().right())
          return false;
      }
      return legend->outerRect().right() <= legend->parentPlot()->width();
    };
    panel.plot()->replot();
    QCOMPARE(legend->wrap(), 0);  // one row
    QVERIFY(all_fit());
    panel.resize(300, 400);
    test::settle();
    panel.plot()->replot();
    QVERIFY(legend->wrap() >= 1);
    QVERIFY(all_fit());
    panel.resize(900, 400);
    test::settle();
    panel.plot()->replot();
    QCOMPARE(legend->wrap(), 0);
  }
};

QTEST_MAIN(MetricCurvePanelTest)
#include "metric_curve_panel_test.moc"
