// Two runs' attention subtracted: A − B cell by cell for a known pair, NaN (masked) cells stay
// masked, different shapes give a reason instead of a map, and the locked scale is the largest
// |A − B| over every layer and head.
#include <QTest>

#include <cmath>

#include "widgets/attention/attention_difference.h"

namespace ascope {

class AttentionDifferenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void subtractsCellByCell();
  void differentShapesSaySo();
  void scaleIsTheLargestDifferenceOverHeads();
};

namespace {

LabeledMatrix matrix(int rows, int cols, std::vector<float> values) {
  LabeledMatrix m(rows, cols);
  m.values = std::move(values);
  return m;
}

}  // namespace

void AttentionDifferenceTest::subtractsCellByCell() {
  LabeledMatrix a = matrix(2, 2, {0.5f, 0.5f, 0.9f, 0.1f});
  a.row_labels = {QStringLiteral("the"), QStringLiteral("cat")};
  const LabeledMatrix b = matrix(2, 2, {0.25f, 0.75f, 0.9f, NAN});
  const AttentionDifference d = attentionDifference(a, b);
  QVERIFY(d.problem.isEmpty());
  QCOMPARE(d.matrix.rows, 2);
  QCOMPARE(d.matrix.at(0, 0), 0.25f);
  QCOMPARE(d.matrix.at(0, 1), -0.25f);
  QCOMPARE(d.matrix.at(1, 0), 0.0f);
  QVERIFY(std::isnan(d.matrix.at(1, 1)));
  QCOMPARE(d.matrix.row_labels, a.row_labels);
}

void AttentionDifferenceTest::differentShapesSaySo() {
  const AttentionDifference d =
      attentionDifference(matrix(2, 2, {1, 0, 0, 1}), matrix(3, 3, std::vector<float>(9, 0.1f)));
  QVERIFY(!d.matrix.isValid());
  QVERIFY2(d.problem.contains(QStringLiteral("2×2")) && d.problem.contains(QStringLiteral("3×3")),
           qPrintable(d.problem));
  QVERIFY(!attentionDifference(LabeledMatrix(), matrix(1, 1, {1})).problem.isEmpty());
}

void AttentionDifferenceTest::scaleIsTheLargestDifferenceOverHeads() {
  AttentionPlotGroup a;
  AttentionPlotGroup b;
  a.layers = {{matrix(1, 2, {0.5f, 0.5f}), matrix(1, 2, {1.0f, 0.0f})}};
  b.layers = {{matrix(1, 2, {0.4f, 0.6f}), matrix(1, 2, {0.3f, 0.7f})}};
  QVERIFY(std::abs(largestDifference(a, b) - 0.7) < 1e-6);
  QCOMPARE(largestDifference(a, a), 0.0);
}

}  // namespace ascope

QTEST_MAIN(ascope::AttentionDifferenceTest)
#include "attention_difference_test.moc"
