// Two runs' attention subtracted: A − B cell by cell for a known pair, NaN (masked) cells stay
// masked, different shapes give a reason instead of a map, and the locked scale is the largest
// |A − B| over every layer and head; a minimal pair drawn side by side with its difference.
#include <QTest>

#include <cmath>

#include "widgets/attention/attention_difference.h"
#include "widgets/attention/minimal_pair_view.h"
#include "widgets/common/heatmap_view.h"

#include <QLabel>
#include <QPushButton>

namespace ascope {

class AttentionDifferenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void subtractsCellByCell();
  void differentShapesSaySo();
  void scaleIsTheLargestDifferenceOverHeads();
  void aMinimalPairShowsBothSidesTheirDifferenceAndTheMostChangedHead();
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

void AttentionDifferenceTest::aMinimalPairShowsBothSidesTheirDifferenceAndTheMostChangedHead() {
  // Tokens lined up: "it", "was", and the changed span "big → small".
  const QStringList labels{"it", "was", "big → small"};
  const auto head = [&labels](std::vector<float> values) {
    LabeledMatrix m = matrix(3, 3, std::move(values));
    m.row_labels = m.col_labels = labels;
    return m;
  };
  MinimalPairPlotData pair;
  pair.input_a = QStringLiteral("it was big");
  pair.input_b = QStringLiteral("it was small");
  pair.answer_a = QStringLiteral("positive (p = 0.80)");
  pair.answer_b = QStringLiteral("negative (p = 0.70)");
  AttentionPlotGroup a, b, d;
  a.name = b.name = d.name = QStringLiteral("encoder self");
  const std::vector<float> same{1, 0, 0, 0.5f, 0.5f, 0, 0.2f, 0.3f, 0.5f};
  a.layers = {{head(same), head({1, 0, 0, 0.5f, 0.5f, 0, 0.2f, 0.3f, 0.5f})}};
  b.layers = {{head(same), head({1, 0, 0, 0.1f, 0.1f, 0.8f, 0.2f, 0.3f, 0.5f})}};
  d.layers = {{head(std::vector<float>(9, 0.0f)), head({0, 0, 0, -0.4f, -0.4f, 0.8f, 0, 0, 0})}};
  pair.a.groups = {a};
  pair.b.groups = {b};
  pair.difference.groups = {d};
  pair.ranking = {{0, 0, 1, 0.267, QStringLiteral("was"), 0.8}, {0, 0, 0, 0.0, {}, 0.0}};

  MinimalPairView view;
  view.resize(900, 600);
  view.show();
  view.setPair(pair);
  QVERIFY(view.answersLabel()->text().contains(QStringLiteral("“it was small” → negative")));
  QCOMPARE(view.currentHead(), 0);
  QVERIFY(view.mapA()->title().startsWith(QStringLiteral("A · encoder self")));
  QVERIFY(
      view.changeLabel()->text().contains(QStringLiteral("Most changed: encoder self · "
                                                         "layer 0 · head 1 (0.267)")));
  view.mostChangedButton()->click();
  QCOMPARE(view.currentHead(), 1);
  QCOMPARE(view.mapB()->matrix().at(1, 2), 0.8f);
  QCOMPARE(view.differenceMap()->matrix().at(1, 2), 0.8f);
  QCOMPARE(view.differenceMap()->matrix().row_labels, labels);
  // The difference on a scale symmetric around 0, reaching the largest change.
  QVERIFY(std::abs(view.differenceMap()->dataRange().lower + 0.8) < 1e-6);
  QVERIFY(std::abs(view.differenceMap()->dataRange().upper - 0.8) < 1e-6);
  QVERIFY(view.changeLabel()->text().contains(QStringLiteral("most at “was” (0.800)")));
  view.showHead(5, 9, 9);  // out of range: kept within the pair
  QCOMPARE(view.currentGroup(), 0);
  QCOMPARE(view.currentHead(), 1);
}

}  // namespace ascope

QTEST_MAIN(ascope::AttentionDifferenceTest)
#include "attention_difference_test.moc"
