// HeadAblationTable: signed changes versus the baseline in the right cells for every measure,
// diverging colours (worse = red), the drop-layer column, the keep-only mode, groups, the run
// controls and their signals, and screenshots at two sizes.

#include "widgets/tables/head_ablation_table.h"
#include "fake_data.h"
#include "widget_test_util.h"

#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace ascope;

namespace {

const QString kEncoder = QStringLiteral("encoder self");
const QString kCross = QStringLiteral("cross");
const QString kMinus = QString(QChar(0x2212));

HeadAblationRow row(const QString& group, int layer, int head, HeadAblationKind kind, double loss,
                    double accuracy, std::optional<double> bleu = std::nullopt) {
  return {group, layer, head, kind, loss, accuracy, {bleu}};
}

// Baseline: accuracy 81.2 %, loss 0.5, BLEU 23.4 on 512 samples. Encoder: 2 layers x 2 heads.
// (0-based, as the attention panel)
//   L0 H0 drop: accuracy 78.1 % (−3.1 pt), loss 0.55 (+0.050), BLEU 21.0 (−2.4)
//   L0 H1 drop: accuracy 82.0 % (+0.8 pt), loss 0.49 (−0.010), BLEU 23.4 (0.0)
//   L1 H0 drop: accuracy 81.2 % (0.0 pt);  L1 H1 not measured
//   L0 H0 keep only: accuracy 52.0 % (−29.2 pt)
//   L0 / L1 drop layer: accuracy 60.0 % (−21.2 pt) / 70.0 % (−11.2 pt)
// Cross: 1 layer x 3 heads, L0 H2 drop: accuracy 80.2 % (−1.0 pt).
HeadAblationData result() {
  HeadAblationData data;
  data.figures = {{QStringLiteral("bleu"), QStringLiteral("BLEU"), true, 1}};
  data.baseline = {0.5, 0.812, {23.4}, 512};
  data.rows = {
      row(kEncoder, 0, 0, HeadAblationKind::DropHead, 0.55, 0.781, 21.0),
      row(kEncoder, 0, 1, HeadAblationKind::DropHead, 0.49, 0.820, 23.4),
      row(kEncoder, 1, 0, HeadAblationKind::DropHead, 0.5, 0.812, 23.4),
      row(kEncoder, 0, 0, HeadAblationKind::KeepOnlyHead, 1.2, 0.520, 9.0),
      row(kEncoder, 0, -1, HeadAblationKind::DropLayer, 1.5, 0.600, 5.0),
      row(kEncoder, 1, -1, HeadAblationKind::DropLayer, 0.9, 0.700, 15.0),
      row(kCross, 0, 2, HeadAblationKind::DropHead, 0.52, 0.802, 22.0),
  };
  return data;
}

QString text(const HeadAblationTable& table, int row, int column) {
  const QTableWidgetItem* item = table.table()->item(row, column);
  return item ? item->text() : QStringLiteral("<no item>");
}

QColor background(const HeadAblationTable& table, int row, int column) {
  return table.table()->item(row, column)->background().color();
}

QPoint cellCenter(const HeadAblationTable& table, int row, int column) {
  return table.table()->visualRect(table.table()->model()->index(row, column)).center();
}

}  // namespace

class HeadAblationTableTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void emptyTableShowsHintAndControls() {
    HeadAblationTable table;
    QVERIFY(test::showAndSettle(&table, QSize(600, 400)));
    QVERIFY(table.isShowingEmptyHint());
    QVERIFY(!table.baselineLabel()->isVisible());
    QVERIFY(table.runButton()->isVisible());
    QVERIFY(table.runButton()->isEnabled());
    QVERIFY(!table.cancelButton()->isVisible());
    QCOMPARE(table.samplesBox()->value(), 512);
    QCOMPARE(table.samplesBox()->minimum(), 16);
    QCOMPARE(table.samplesBox()->maximum(), 100000);
    table.setResult(result());
    QVERIFY(!table.isShowingEmptyHint());
    table.clear();
    QVERIFY(table.isShowingEmptyHint());
  }

  void baselineLine() {
    HeadAblationTable table;
    table.setResult(result());
    QCOMPARE(table.baselineLabel()->text(),
             QStringLiteral("Baseline: accuracy 81.2 %, BLEU 23.4, loss 0.500 on 512 validation "
                            "samples"));
    HeadAblationData no_bleu = result();
    no_bleu.baseline.figures = {std::nullopt};
    table.setResult(no_bleu);
    QCOMPARE(table.baselineLabel()->text(),
             QStringLiteral("Baseline: accuracy 81.2 %, loss 0.500 on 512 validation samples"));
  }

  void cellsShowSignedChangesVersusBaseline() {
    HeadAblationTable table;
    table.setResult(result());
    QCOMPARE(table.currentGroup(), kEncoder);
    QCOMPARE(table.measure(), HeadAblationMeasure::accuracy());
    QCOMPARE(table.layerCount(), 2);
    QCOMPARE(table.headCount(), 2);
    QTableWidget* t = table.table();
    QCOMPARE(t->rowCount(), 2);
    QCOMPARE(t->columnCount(), 3);
    QCOMPARE(t->horizontalHeaderItem(0)->text(), QStringLiteral("H0"));
    QCOMPARE(t->horizontalHeaderItem(2)->text(), QStringLiteral("drop layer"));
    QCOMPARE(t->verticalHeaderItem(1)->text(), QStringLiteral("L1"));
    QCOMPARE(text(table, 0, 0), kMinus + QStringLiteral("3.1 pt"));
    QCOMPARE(text(table, 0, 1), QStringLiteral("+0.8 pt"));
    QCOMPARE(text(table, 1, 0), QStringLiteral("0.0 pt"));
    QCOMPARE(text(table, 1, 1), QStringLiteral("–"));  // not measured
    QVERIFY(std::abs(*table.delta(0, 0) - -3.1) < 1e-9);
    QVERIFY(!table.delta(1, 1));
    // The drop-layer column.
    QCOMPARE(text(table, 0, 2), kMinus + QStringLiteral("21.2 pt"));
    QCOMPARE(text(table, 1, 2), kMinus + QStringLiteral("11.2 pt"));
    QVERIFY(std::abs(*table.delta(1, -1) - -11.2) < 1e-9);

    table.setMeasure(HeadAblationMeasure::loss());
    QCOMPARE(text(table, 0, 0), QStringLiteral("+0.050"));
    QCOMPARE(text(table, 0, 1), kMinus + QStringLiteral("0.010"));
    QCOMPARE(text(table, 0, 2), QStringLiteral("+1.000"));
    const HeadAblationMeasure bleu = HeadAblationMeasure::figureOf(result(), 0);
    table.setMeasure(bleu);
    QCOMPARE(table.measure(), bleu);
    QCOMPARE(text(table, 0, 0), kMinus + QStringLiteral("2.4"));
    QCOMPARE(text(table, 0, 1), QStringLiteral("0.0"));
  }

  void measuresOfferBleuOnlyWhenMeasured() {
    HeadAblationTable table;
    table.setResult(result());
    QCOMPARE(table.measureSelector()->count(), 3);
    QCOMPARE(table.measureSelector()->itemText(1), QStringLiteral("Δ BLEU"));
    HeadAblationData no_bleu = result();
    no_bleu.baseline.figures = {std::nullopt};
    table.setMeasure(HeadAblationMeasure::loss());
    table.setResult(no_bleu);
    QCOMPARE(table.measureSelector()->count(), 2);
    QCOMPARE(table.measure(), HeadAblationMeasure::loss());  // the choice survives new results
  }

  void coloursSayWorseInRedAndBetterInBlue() {
    HeadAblationTable table;
    table.setResult(result());
    // Accuracy: −3.1 pt is the largest single-head change, so that cell is full red.
    QCOMPARE(table.colorLimit(), 3.1);
    const QColor worse = background(table, 0, 0);
    QVERIFY2(worse.red() > worse.blue() + 80, qPrintable(worse.name()));
    const QColor better = background(table, 0, 1);
    QVERIFY2(better.blue() > better.red(), qPrintable(better.name()));
    // +0.8 of 3.1: a quarter of the way from the background to blue, much paler than the red.
    const QColor base = table.palette().color(QPalette::Base);
    QVERIFY(test::colorDistance(better.rgb(), base) < test::colorDistance(worse.rgb(), base));
    QCOMPARE(background(table, 1, 0), table.colorFor(0.0));  // no change: the background
    QCOMPARE(table.colorFor(0.0).rgb(), base.rgb());
    // The drop-layer column saturates at the head scale: as red as the worst head.
    QCOMPARE(background(table, 0, 2), worse);
    // Loss: a rise is worse, so the sign of the colour follows harm, not the sign of the number.
    table.setMeasure(HeadAblationMeasure::loss());
    const QColor loss_up = background(table, 0, 0);  // +0.050
    QVERIFY(loss_up.red() > loss_up.blue() + 80);
    const QColor loss_down = background(table, 0, 1);  // −0.010
    QVERIFY(loss_down.blue() > loss_down.red());
    QVERIFY(table.legendLabel()->text().contains(QStringLiteral("worse than baseline")));
    QVERIFY(table.legendLabel()->text().contains(QStringLiteral("±0.050")));
  }

  void keepOnlyModeShowsKeepOnlyRows() {
    HeadAblationTable table;
    table.setResult(result());
    table.modeSelector()->setCurrentIndex(1);
    QVERIFY(table.isKeepOnly());
    QCOMPARE(text(table, 0, 0), kMinus + QStringLiteral("29.2 pt"));
    QCOMPARE(text(table, 0, 1), QStringLiteral("–"));
    QCOMPARE(text(table, 0, 2), kMinus + QStringLiteral("21.2 pt"));  // drop layer stays
    table.setKeepOnly(false);
    QCOMPARE(text(table, 0, 0), kMinus + QStringLiteral("3.1 pt"));
  }

  void groupsHaveTheirOwnTables() {
    HeadAblationTable table;
    table.setResult(result());
    QCOMPARE(table.groupSelector()->count(), 2);
    table.groupSelector()->setCurrentIndex(1);
    QCOMPARE(table.currentGroup(), kCross);
    QCOMPARE(table.layerCount(), 1);
    QCOMPARE(table.headCount(), 3);
    QCOMPARE(text(table, 0, 2), kMinus + QStringLiteral("1.0 pt"));
    QCOMPARE(text(table, 0, 0), QStringLiteral("–"));
    QCOMPARE(text(table, 0, 3), QStringLiteral("–"));  // no drop-layer row for cross
    table.setResult(result());
    QCOMPARE(table.currentGroup(), kCross);
  }

  void clickingACellPicksTheHead() {
    HeadAblationTable table;
    table.setResult(result());
    QVERIFY(test::showAndSettle(&table, QSize(900, 600)));
    QSignalSpy spy(&table, &HeadAblationTable::headPicked);
    QTest::mouseClick(table.table()->viewport(), Qt::LeftButton, {}, cellCenter(table, 1, 0));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toString(), kEncoder);
    QCOMPARE(spy[0][1].toInt(), 1);
    QCOMPARE(spy[0][2].toInt(), 0);
    QTest::mouseClick(table.table()->viewport(), Qt::LeftButton, {}, cellCenter(table, 0, 2));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy[1][1].toInt(), 0);
    QCOMPARE(spy[1][2].toInt(), -1);  // the whole layer
  }

  void runControlsEmitAndFollowTheRun() {
    HeadAblationTable table;
    QVERIFY(test::showAndSettle(&table, QSize(700, 400)));
    QSignalSpy run(&table, &HeadAblationTable::runRequested);
    QSignalSpy cancel(&table, &HeadAblationTable::cancelRequested);
    table.samplesBox()->setValue(2048);
    QTest::mouseClick(table.runButton(), Qt::LeftButton);
    QCOMPARE(run.count(), 1);
    QCOMPARE(run[0][0].toInt(), 2048);
    table.setRunning(true);
    test::settle();
    QVERIFY(!table.runButton()->isEnabled());
    QVERIFY(!table.samplesBox()->isEnabled());
    QVERIFY(table.cancelButton()->isVisible());
    QVERIFY(table.progressBar()->isVisible());
    table.setProgress(3, 10);
    QCOMPARE(table.progressBar()->maximum(), 10);
    QCOMPARE(table.progressBar()->value(), 3);
    QTest::mouseClick(table.cancelButton(), Qt::LeftButton);
    QCOMPARE(cancel.count(), 1);
    table.setRunning(false);
    test::settle();
    QVERIFY(table.runButton()->isEnabled());
    QVERIFY(!table.cancelButton()->isVisible());
    QVERIFY(!table.progressBar()->isVisible());
    table.setMessage(QStringLiteral("ablation failed: no checkpoint in runs/x"));
    test::settle();
    QVERIFY(table.messageLabel()->isVisible());
    QCOMPARE(table.messageLabel()->text(),
             QStringLiteral("ablation failed: no checkpoint in runs/x"));
    table.setMessage(QString());
    QVERIFY(!table.messageLabel()->isVisible());
  }

  void darkPaletteKeepsTextReadable() {
    HeadAblationTable table;
    table.setPalette(fake::darkPalette());
    table.setResult(result());
    // Unchanged cells are the dark Base colour with light text.
    QCOMPARE(background(table, 1, 0).rgb(), QColor(0x1e, 0x1f, 0x22).rgb());
    const QColor text_color = table.table()->item(1, 0)->foreground().color();
    QVERIFY(test::luma(text_color.rgb()) > 180);
  }

  void rendersAtTwoSizes() {
    QTemporaryDir temp;
    const QString dir = test::shotDir(temp);
    for (const bool dark : {false, true}) {
      for (const QSize size : {QSize(900, 600), QSize(500, 400)}) {
        HeadAblationTable table;
        if (dark) table.setPalette(fake::darkPalette());
        table.setResult(fake::headAblation(6, 8));
        table.setRunning(true);
        table.setProgress(97, 162);
        table.setMessage(QStringLiteral("measuring encoder self layer 5 head 2 …"));
        QVERIFY(test::showAndSettle(&table, size));
        const QImage image = table.grab().toImage();
        QVERIFY(image.save(QDir(dir).filePath(QStringLiteral("head_ablation_%1x%2%3.png")
                                                  .arg(size.width())
                                                  .arg(size.height())
                                                  .arg(dark ? "_dark" : ""))));
        // Every column's header text fits: the table may scroll but cells are never narrower
        // than a signed value.
        const QFontMetrics fm(table.table()->font());
        for (int c = 0; c < table.table()->columnCount(); ++c)
          QVERIFY(table.table()->columnWidth(c) >=
                  fm.horizontalAdvance(kMinus + QStringLiteral("88.8 pt")));
      }
    }
  }
};

QTEST_MAIN(HeadAblationTableTest)
#include "head_ablation_table_test.moc"
