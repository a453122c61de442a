// DecimatingSeries (bounded history) and EmaSmoother (debiased EMA): pure logic, no widgets.

#include "widgets/curves/decimating_series.h"
#include "widgets/curves/ema_smoother.h"

#include <QTest>

#include <cmath>
#include <limits>

using ascope::DecimatingSeries;
using ascope::EmaSmoother;
using ascope::SeriesPoint;

class DecimatingSeriesTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void keepsEverythingBelowCapacity() {
    DecimatingSeries s(8, 16);
    for (int i = 0; i < 20; ++i) s.append(i, i * 10.0);
    QCOMPARE(s.size(), 20);
    const std::vector<SeriesPoint> points = s.points();
    for (int i = 0; i < 20; ++i) {
      QCOMPARE(points[i].x, double(i));
      QCOMPARE(points[i].y, i * 10.0);
    }
  }

  void boundedForLongRunsAndKeepsFirstAndLast() {
    DecimatingSeries s(4096, 16384);
    const int n = 1000000;
    for (int i = 0; i < n; ++i) s.append(i, std::sin(i * 0.001));
    QVERIFY(s.size() <= s.capacity());
    QVERIFY(s.size() > s.capacity() / 2);  // decimation halves, never empties
    QCOMPARE(s.totalAppended(), std::int64_t(n));
    QCOMPARE(s.first().x, 0.0);
    QCOMPARE(s.last().x, double(n - 1));
    QCOMPARE(s.last().y, std::sin((n - 1) * 0.001));
    QVERIFY(s.historyStride() > 1);
    // strictly increasing x, and the most recent 4096 points are all present (full resolution)
    const std::vector<SeriesPoint> points = s.points();
    for (size_t i = 1; i < points.size(); ++i) QVERIFY(points[i].x > points[i - 1].x);
    for (int i = 0; i < 4096; ++i) QCOMPARE(points[points.size() - 1 - i].x, double(n - 1 - i));
  }

  void decimatedHistoryIsEvenlySpaced() {
    DecimatingSeries s(4, 8);
    for (int i = 0; i < 200; ++i) s.append(i, 0);
    const std::vector<SeriesPoint> points = s.points();
    const int history = s.size() - 4;
    QVERIFY(history >= 2);
    const double spacing = points[1].x - points[0].x;
    QCOMPARE(spacing, double(s.historyStride()));
    for (int i = 1; i < history; ++i) QCOMPARE(points[i].x - points[i - 1].x, spacing);
  }

  void clearResets() {
    DecimatingSeries s(4, 8);
    for (int i = 0; i < 100; ++i) s.append(i, i);
    s.clear();
    QVERIFY(s.empty());
    QCOMPARE(s.totalAppended(), std::int64_t(0));
    QCOMPARE(s.historyStride(), std::int64_t(1));
    s.append(5, 6);
    QCOMPARE(s.first().x, 5.0);
    QCOMPARE(s.last().y, 6.0);
  }

  void emaMatchesHandComputedValues() {
    // w = 0.5 on 1, 2, 3: acc = 0.5, 1.25, 2.125; debias 0.5, 0.75, 0.875
    EmaSmoother ema(0.5);
    QCOMPARE(ema.add(1.0), 1.0);
    QVERIFY(qFuzzyCompare(ema.add(2.0), 1.25 / 0.75));
    QVERIFY(qFuzzyCompare(ema.add(3.0), 2.125 / 0.875));
  }

  void emaStartsAtFirstValueAndConvergesToConstant() {
    EmaSmoother ema(0.99);
    QCOMPARE(ema.add(4.0), 4.0);  // no pull towards zero
    for (int i = 0; i < 50; ++i) QVERIFY(qFuzzyCompare(ema.add(4.0), 4.0));
  }

  void emaWeightZeroIsIdentityAndNanIsSkipped() {
    EmaSmoother ema(0.0);
    QCOMPARE(ema.add(3.0), 3.0);
    QCOMPARE(ema.add(-1.0), -1.0);
    EmaSmoother smooth(0.9);
    smooth.add(1.0);
    const double before = smooth.value();
    QCOMPARE(smooth.add(std::numeric_limits<double>::quiet_NaN()), before);
    QVERIFY(std::isfinite(smooth.add(1.0)));
  }
};

QTEST_APPLESS_MAIN(DecimatingSeriesTest)
#include "decimating_series_test.moc"
