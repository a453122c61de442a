// BeamTreeView: a beam's candidates in one column per step, best first; a click chooses the best
// finished hypothesis through the candidate (none through a pruned one); the chosen path and the
// current step are drawn; the tooltip names token, scores and fate.

#include "widgets/decoding/beam_tree_view.h"
#include "widget_test_util.h"

#include <QSignalSpy>
#include <QTest>

using namespace ascope;
using namespace ascope::test;

namespace {

// Step 0: "il" (kept), "la" (kept), "un" (pruned); step 1: "gatto" after "il" (finished),
// "gatta" after "la" (finished), "cane" after "il" (pruned).
std::shared_ptr<const BeamTreeData> tree() {
  auto t = std::make_shared<BeamTreeData>();
  t->width = 2;
  using F = BeamTreeData::Fate;
  t->nodes = {{0, -1, "il", -0.4, -0.4, F::Kept},       {0, -1, "la", -0.9, -0.9, F::Kept},
              {0, -1, "un", -2.5, -2.5, F::Pruned},     {1, 0, "gatto", -0.7, -0.6, F::Finished},
              {1, 1, "gatta", -1.2, -1.0, F::Finished}, {1, 0, "cane", -3.0, -2.6, F::Pruned}};
  t->hypotheses = {{"il gatto", -0.6, 3, nullptr}, {"la gatta", -1.0, 4, nullptr}};
  return t;
}

}  // namespace

class BeamTreeViewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void pathsAndHypothesesFollowTheParents() {
    const auto t = tree();
    QCOMPARE(t->stepCount(), 2);
    QCOMPARE(t->pathTo(4), (std::vector<int>{1, 4}));
    QCOMPARE(t->hypothesisThrough(0), 0);
    QCOMPARE(t->hypothesisThrough(1), 1);
    QCOMPARE(t->hypothesisThrough(2), -1);
    QCOMPARE(t->hypothesisThrough(5), -1);
  }

  void eachStepIsAColumnBestFirst() {
    BeamTreeView view;
    view.setTree(tree());
    QVERIFY(showAndSettle(&view, view.sizeHint()));
    // Columns left to right by step; inside one, higher log-probability higher up.
    QVERIFY(view.nodeRect(0).right() < view.nodeRect(3).left());
    QCOMPARE(view.nodeRect(0).left(), view.nodeRect(1).left());
    QVERIFY(view.nodeRect(0).bottom() < view.nodeRect(1).top());
    QVERIFY(view.nodeRect(1).bottom() < view.nodeRect(2).top());
    QVERIFY(view.nodeRect(3).bottom() < view.nodeRect(4).top());
    QVERIFY(view.nodeRect(4).bottom() < view.nodeRect(5).top());
    for (int n = 0; n < 6; ++n) QVERIFY(view.rect().contains(view.nodeRect(n).toRect()));
    QCOMPARE(view.nodeAt(view.nodeRect(4).center()), 4);
    QCOMPARE(view.nodeAt(QPointF(1, 1)), -1);
    QVERIFY(view.nodeText(5).contains("cane"));
    QVERIFY(view.nodeText(5).contains("pruned"));
    QVERIFY(view.nodeText(3).contains("finished"));
  }

  void clickingACandidateChoosesItsHypothesis() {
    BeamTreeView view;
    view.setTree(tree());
    QVERIFY(showAndSettle(&view, view.sizeHint()));
    QSignalSpy chosen(&view, &BeamTreeView::hypothesisChosen);
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.nodeRect(1).center().toPoint());
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.takeFirst().at(0).toInt(), 1);
    QCOMPARE(view.chosen(), 1);
    // A pruned candidate leads to no finished hypothesis: nothing changes.
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.nodeRect(2).center().toPoint());
    QCOMPARE(chosen.count(), 0);
    QCOMPARE(view.chosen(), 1);
  }

  void theChosenPathIsDrawnInTheAccent() {
    BeamTreeView view;
    view.setTree(tree());
    QVERIFY(showAndSettle(&view, view.sizeHint()));
    const auto accentPixels = [&view](int node) {
      const QImage image = view.grab().toImage();
      const QColor accent = view.palette().color(QPalette::Highlight);
      return countPixelsNear(image, view.nodeRect(node).toRect().adjusted(-1, -1, 1, 1), accent,
                             60);
    };
    view.setChosen(0);
    const int il_chosen = accentPixels(0), la_chosen = accentPixels(1);
    QVERIFY2(il_chosen > la_chosen, qPrintable(QString("%1 vs %2").arg(il_chosen).arg(la_chosen)));
    view.setChosen(1);
    QVERIFY(accentPixels(1) > accentPixels(0));
    view.setStep(1);  // the shade of the current step must not hide the boxes
    QCOMPARE(view.nodeAt(view.nodeRect(3).center()), 3);
  }
};

QTEST_MAIN(BeamTreeViewTest)
#include "beam_tree_view_test.moc"
