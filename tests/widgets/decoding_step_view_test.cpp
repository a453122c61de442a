// DecodingStepView: stepping through greedy decoding, caption, masked self-attention, top-k bars,
// empty hint and CSV export.

#include "widgets/decoding/decoding_step_view.h"
#include "widget_test_util.h"
#include "widgets/common/empty_hint.h"
#include "widgets/common/qcustomplot_include.h"
#include "widgets/common/themed_plot.h"

#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cmath>

using namespace ascope;

namespace {

// Every (query, key) weight of a square or rectangular head; causal heads get NaN above the
// diagonal as the engine writes them.
LabeledMatrix head(const QStringList& queries, const QStringList& keys, bool causal) {
  LabeledMatrix m(static_cast<int>(queries.size()), static_cast<int>(keys.size()));
  m.row_labels = queries;
  m.col_labels = keys;
  for (int r = 0; r < m.rows; ++r) {
    const int visible = causal ? std::min(r + 1, m.cols) : m.cols;
    for (int c = 0; c < m.cols; ++c) m.at(r, c) = c < visible ? 1.0f / visible : std::nanf("");
  }
  return m;
}

// "the cat ." → "le chat . <eos>": 3 source tokens, 4 decoding steps, 2 layers x 2 heads.
AttentionPlotData translation() {
  const QStringList source = {"the", "cat", "."};
  const QStringList fed = {"<sos>", "le", "chat", "."};
  const QStringList predicted = {"le", "chat", ".", "<eos>"};
  AttentionPlotData data;
  data.step = 300;
  auto group = [&](const QString& name, const QStringList& keys, bool causal) {
    AttentionPlotGroup g;
    g.name = name;
    g.causal = causal;
    g.row_predictions = predicted;
    g.layers = {{head(fed, keys, causal), head(fed, keys, causal)},
                {head(fed, keys, causal), head(fed, keys, causal)}};
    return g;
  };
  data.groups = {group(QStringLiteral("encoder self"), source, false),
                 group(QStringLiteral("decoder self"), fed, true),
                 group(QStringLiteral("cross"), source, false)};
  data.groups[0].row_predictions.clear();
  data.decoding = {{{"le", "la", "les"}, {0.81, 0.12, 0.04}},
                   {{"chat", "chien", "chats"}, {0.64, 0.2, 0.1}},
                   {{".", "noir", "!"}, {0.7, 0.15, 0.05}},
                   {{"<eos>", "."}, {0.93, 0.03}}};
  return data;
}

QPushButton* button(DecodingStepView& view, const char* name) {
  return view.findChild<QPushButton*>(QLatin1String(name));
}

std::vector<double> barValues(QCustomPlot* plot, const QString& name) {
  std::vector<double> values;
  for (int i = 0; i < plot->plottableCount(); ++i) {
    auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
    if (!bars || (!name.isEmpty() && bars->name() != name)) continue;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
      values.push_back(it->value);
  }
  std::sort(values.rbegin(), values.rend());
  return values;
}

int itemsNamed(QCustomPlot* plot, const QString& name) {
  int count = 0;
  for (int i = 0; i < plot->itemCount(); ++i)
    if (plot->item(i)->objectName() == name) ++count;
  return count;
}

}  // namespace

class DecodingStepViewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void stepsAndCaption() {
    DecodingStepView view;
    view.setSnapshot(translation());
    QCOMPARE(view.stepCount(), 4);
    QCOMPARE(view.step(), 0);
    QCOMPARE(view.layer(), 1);  // last layer by default
    QCOMPARE(view.head(), 0);
    QCOMPARE(view.captionText(), QStringLiteral("fed <sos> → predicts le"));
    view.setStep(3);
    QCOMPARE(view.captionText(), QStringLiteral("fed . → predicts <eos>"));
    view.setStep(99);  // clamped
    QCOMPARE(view.step(), 3);
  }

  void buttonsStepAndDisableAtTheEnds() {
    DecodingStepView view;
    view.setSnapshot(translation());
    QVERIFY(test::showAndSettle(&view, QSize(600, 400)));
    QSignalSpy spy(&view, &DecodingStepView::stepChanged);
    QPushButton* prev = button(view, "decodingPrev");
    QPushButton* next = button(view, "decodingNext");
    QPushButton* start = button(view, "decodingStart");
    QPushButton* end = button(view, "decodingEnd");
    QVERIFY(prev && next && start && end);
    QVERIFY(!prev->isEnabled() && !start->isEnabled());
    QVERIFY(next->isEnabled() && end->isEnabled());
    next->click();
    QCOMPARE(view.step(), 1);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).toInt(), 1);
    QVERIFY(prev->isEnabled());
    end->click();
    QCOMPARE(view.step(), 3);
    QVERIFY(!next->isEnabled() && !end->isEnabled());
    prev->click();
    QCOMPARE(view.step(), 2);
    start->click();
    QCOMPARE(view.step(), 0);
    QCOMPARE(spy.count(), 4);
    // keyboard, with the view focused
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_Right);
    QCOMPARE(view.step(), 1);
    QTest::keyClick(&view, Qt::Key_End);
    QCOMPARE(view.step(), 3);
    QTest::keyClick(&view, Qt::Key_Left);
    QCOMPARE(view.step(), 2);
    QTest::keyClick(&view, Qt::Key_Home);
    QCOMPARE(view.step(), 0);
  }

  void topKBarsCarryTheProbabilities() {
    DecodingStepView view;
    view.setSnapshot(translation());
    view.setStep(1);
    QCustomPlot* plot = view.candidatesPlot();
    const std::vector<double> all = barValues(plot, QString());
    QCOMPARE(all.size(), size_t(3));
    QCOMPARE(all[0], 0.64);
    QCOMPARE(all[1], 0.2);
    QCOMPARE(all[2], 0.1);
    const std::vector<double> chosen = barValues(plot, QStringLiteral("chosen"));
    QCOMPARE(chosen.size(), size_t(1));
    QCOMPARE(chosen[0], 0.64);
    view.setStep(3);
    QCOMPARE(barValues(plot, QString()).size(), size_t(2));
  }

  void selfAttentionMasksLaterTokens() {
    DecodingStepView view;
    view.setSnapshot(translation());
    QVERIFY(test::showAndSettle(&view, QSize(600, 400)));
    view.setStep(1);
    QCustomPlot* plot = view.selfAttentionPlot();
    auto* map = qobject_cast<QCPColorMap*>(plot->plottable(0));
    QVERIFY(map);
    QCOMPARE(map->data()->keySize(), 4);  // every fed token has a cell ...
    int unmasked = 0;
    for (int c = 0; c < map->data()->keySize(); ++c)
      if (std::isfinite(map->data()->cell(c, 0))) ++unmasked;
    QCOMPARE(unmasked, 2);  // ... but step 1 sees only <sos> and "le"
    QCOMPARE(itemsNamed(plot, QStringLiteral("maskedCell")), 2);
    QCOMPARE(map->data()->cell(0, 0), 0.5);
    // cross attention: all three source tokens
    auto* cross = qobject_cast<QCPColorMap*>(view.crossAttentionPlot()->plottable(0));
    QCOMPARE(cross->data()->keySize(), 3);
    QCOMPARE(itemsNamed(view.crossAttentionPlot(), QStringLiteral("maskedCell")), 0);
    // the average of heads shows the same rows for these identical heads
    view.setHead(0, DecodingStepView::kAverageHeads);
    QCOMPARE(view.head(), DecodingStepView::kAverageHeads);
    QCOMPARE(map->data()->cell(1, 0), 0.5);
  }

  void withoutDecodingShowsTheHint() {
    DecodingStepView view;
    QVERIFY(test::showAndSettle(&view, QSize(600, 400)));
    auto* hint = view.findChild<EmptyHint*>(QStringLiteral("decodingEmptyHint"));
    QVERIFY(hint);
    QVERIFY(hint->isVisible());
    QCOMPARE(hint->text(), QStringLiteral("Decoding steps appear for translation runs"));
    view.setSnapshot(translation());
    QVERIFY(!hint->isVisible());
    AttentionPlotData classifier = translation();
    classifier.decoding.clear();
    view.setSnapshot(classifier);
    QVERIFY(hint->isVisible());
    QCOMPARE(view.stepCount(), 0);
    QVERIFY(view.captionText().isEmpty());
    QVERIFY(!button(view, "decodingNext")->isEnabled());
  }

  void exports() {
    DecodingStepView view;
    view.setSnapshot(translation());
    QVERIFY(test::showAndSettle(&view, QSize(600, 400)));
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("d.csv"));
    QVERIFY(view.exportCsv(csv).ok());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines[0], QStringLiteral("step,fed_token,predicted_token,token_1,probability_1,"
                                      "token_2,probability_2,token_3,probability_3"));
    QCOMPARE(lines[1], QStringLiteral("0,<sos>,le,le,0.81,la,0.12,les,0.04"));
    QCOMPARE(lines[4], QStringLiteral("3,.,<eos>,<eos>,0.93,.,0.03,,"));

    const QString png = dir.filePath(QStringLiteral("d.png"));
    QVERIFY(view.exportImage(png, ImageFormat::Png, {900, 600, 1.0}).ok());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(900, 600));
    QVERIFY(!test::isUniform(image, image.rect()));
    QCOMPARE(view.size(), QSize(600, 400));  // the on-screen layout is back
  }
};

QTEST_MAIN(DecodingStepViewTest)
#include "decoding_step_view_test.moc"
