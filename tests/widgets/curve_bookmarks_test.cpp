// Bookmark markers on a curve plot: one dashed line and label per bookmark at its step, replaced
// as a whole, and a click within a few pixels of a marker asks for exactly that step.
#include <QSignalSpy>
#include <QTest>

#include "widget_test_util.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/curve_bookmarks.h"

namespace ascope {

class CurveBookmarksTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void drawsOneMarkerPerBookmark();
  void clickNearAMarkerAsksForItsStep();
};

void CurveBookmarksTest::drawsOneMarkerPerBookmark() {
  ThemedPlot plot;
  CurveBookmarks markers(&plot);
  const int items_before = plot.itemCount();
  markers.setMarkers({{20, QStringLiteral("heads split")},
                      {70, QStringLiteral("a long note that "
                                          "goes on and on")}});
  QCOMPARE(plot.itemCount(), items_before + 4);  // a line and a label each
  QCOMPARE(markers.line(1)->point1->coords().x(), 70.0);
  QVERIFY(markers.label(0)->text().contains(QStringLiteral("heads split")));
  QVERIFY(markers.label(1)->text().endsWith(QStringLiteral("…")));  // cut, not wrapped
  markers.setMarkers({{5, QString()}});
  QCOMPARE(plot.itemCount(), items_before + 2);
  markers.setMarkers({});
  QCOMPARE(plot.itemCount(), items_before);
}

void CurveBookmarksTest::clickNearAMarkerAsksForItsStep() {
  ThemedPlot plot;
  plot.xAxis->setRange(0, 100);
  CurveBookmarks markers(&plot);
  markers.setMarkers({{25, QStringLiteral("a")}, {60, QStringLiteral("b")}});
  QVERIFY(test::showAndSettle(&plot, QSize(600, 300)));
  plot.replot();
  QSignalSpy clicked(&markers, &CurveBookmarks::markerClicked);
  const int y = plot.axisRect()->center().y();
  const int at_60 = static_cast<int>(plot.xAxis->coordToPixel(60));
  QCOMPARE(markers.markerAt(at_60 + 3), 1);
  QTest::mouseClick(&plot, Qt::LeftButton, Qt::NoModifier, QPoint(at_60 + 3, y));
  QCOMPARE(clicked.size(), 1);
  QCOMPARE(clicked.at(0).at(0).toDouble(), 60.0);
  // Between the markers: no bookmark is asked for.
  const int between = static_cast<int>(plot.xAxis->coordToPixel(42));
  QCOMPARE(markers.markerAt(between), -1);
  QTest::mouseClick(&plot, Qt::LeftButton, Qt::NoModifier, QPoint(between, y));
  QCOMPARE(clicked.size(), 1);
}

}  // namespace ascope

QTEST_MAIN(ascope::CurveBookmarksTest)
#include "curve_bookmarks_test.moc"
