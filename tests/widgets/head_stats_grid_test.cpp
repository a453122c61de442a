// HeadStatsGridPanel: layers x heads sparkline cells from plain rows, values at the cursor step,
// live appends, clicks and notes emitting headPicked, group and metric choosers, the value scale
// of unbounded metrics, larger fonts, dark palette, and screenshots at two sizes.

#include "widgets/tables/head_stats_grid.h"
#include "fake_data.h"
#include "widget_test_util.h"
#include "widgets/tables/head_stats_grid_panel.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cmath>

using namespace ascope;

namespace {

const QString kEncoder = QStringLiteral("encoder");
const QString kCross = QStringLiteral("cross");
const QString kEntropy = QStringLiteral("entropy");
const QString kDistance = QStringLiteral("distance");
const QString kMaxWeight = QStringLiteral("max_weight");

std::vector<HeadStatsMetric> metrics() {
  return {{kEntropy, QStringLiteral("Entropy of the attention weights"), false},
          {kDistance, QStringLiteral("Mean attended distance in tokens"), false},
          {kMaxWeight, QStringLiteral("Mean largest weight"), true}};
}

// entropy = step / 1000 + layer / 10 + head / 100, e.g. layer 1 head 2 at step 200 → 0.32;
// distance = (layer + 1) * (head + 1) * step / 100, largest 2 * 3 * 3 = 18 at step 300;
// max_weight = 0.5. The encoder has 2 layers x 3 heads, cross 1 layer x 2 heads.
std::vector<HeadStatsPoint> rowsAt(std::int64_t step) {
  std::vector<HeadStatsPoint> rows;
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 3; ++h) {
      rows.push_back({kEncoder, l, h, kEntropy, step / 1000.0 + l / 10.0 + h / 100.0});
      rows.push_back({kEncoder, l, h, kDistance, (l + 1) * (h + 1) * step / 100.0});
      rows.push_back({kEncoder, l, h, kMaxWeight, 0.5});
    }
  for (int h = 0; h < 2; ++h) rows.push_back({kCross, 0, h, kEntropy, 2.0 + h});
  return rows;
}

std::vector<HeadStatsProbe> probes() {
  return {{100, rowsAt(100)}, {200, rowsAt(200)}, {300, rowsAt(300)}};
}

void fill(HeadStatsGridPanel& panel) {
  panel.setMetrics(metrics());
  panel.setStatistics(probes());
}

}  // namespace

class HeadStatsGridTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void emptyPanelShowsHint() {
    HeadStatsGridPanel panel;
    panel.setMetrics(metrics());
    QVERIFY(test::showAndSettle(&panel, QSize(600, 400)));
    QVERIFY(panel.isShowingEmptyHint());
    auto* hint = panel.findChild<QLabel*>();
    QVERIFY(hint);
    QCOMPARE(hint->text(), QStringLiteral("Head statistics appear at the first attention probe"));
    panel.appendStatistics(100, rowsAt(100));
    QVERIFY(!panel.isShowingEmptyHint());
    panel.clear();
    QVERIFY(panel.isShowingEmptyHint());
    QCOMPARE(panel.grid()->layerCount(), 0);
  }

  void gridHasACellPerLayerAndHead() {
    HeadStatsGridPanel panel;
    fill(panel);
    QVERIFY(test::showAndSettle(&panel, QSize(900, 600)));
    QCOMPARE(panel.currentGroup(), kEncoder);
    QCOMPARE(panel.currentMetric(), kEntropy);
    QCOMPARE(panel.groupSelector()->count(), 2);
    QCOMPARE(panel.metricSelector()->count(), 3);
    QCOMPARE(panel.metricSelector()->itemText(2), QStringLiteral("max weight"));
    HeadStatsGrid* grid = panel.grid();
    QCOMPARE(grid->layerCount(), 2);
    QCOMPARE(grid->headCount(), 3);
    // Cells left to right by head, top to bottom by layer, none overlapping, all on the widget.
    for (int l = 0; l < 2; ++l)
      for (int h = 0; h < 3; ++h) {
        const QRect cell = grid->cellRect(l, h);
        QVERIFY(grid->rect().contains(cell));
        QVERIFY(grid->plotRect(l, h).height() >= 10);
        if (h > 0) QVERIFY(cell.left() > grid->cellRect(l, h - 1).right());
        if (l > 0) QVERIFY(cell.top() > grid->cellRect(l - 1, h).bottom());
        QCOMPARE(grid->cellAt(cell.center()), std::make_pair(l, h));
      }
    QVERIFY(grid->cellRect(2, 0).isEmpty());
    QCOMPARE(grid->cellAt(QPoint(1, 1)), std::make_pair(-1, -1));
  }

  void cellsShowTheValueAtTheCursorStep() {
    HeadStatsGridPanel panel;
    fill(panel);
    HeadStatsGrid* grid = panel.grid();
    // No cursor: the newest value, layer 1 head 2 at step 300 = 0.3 + 0.1 + 0.02.
    QVERIFY(std::abs(*grid->shownValue(1, 2) - 0.42) < 1e-6);
    QCOMPARE(grid->valueText(1, 2), QStringLiteral("0.42"));
    panel.setCursorStep(250);  // between probes: the one at 200
    QVERIFY(std::abs(*grid->shownValue(1, 2) - 0.32) < 1e-6);
    QVERIFY(std::abs(*grid->shownValue(0, 0) - 0.20) < 1e-6);
    QCOMPARE(grid->valueText(0, 1), QStringLiteral("0.21"));
    panel.setCursorStep(300);  // exactly on a probe
    QVERIFY(std::abs(*grid->shownValue(0, 1) - 0.31) < 1e-6);
    panel.setCursorStep(5000);  // past the newest
    QVERIFY(std::abs(*grid->shownValue(0, 1) - 0.31) < 1e-6);
    panel.setCursorStep(99);  // before the first probe: nothing yet
    QVERIFY(!grid->shownValue(0, 1));
    QCOMPARE(grid->valueText(0, 1), QStringLiteral("–"));
    QCOMPARE(panel.cursorStep(), 99);
  }

  void appendGrowsTheSeries() {
    HeadStatsGridPanel panel;
    panel.setMetrics(metrics());
    panel.appendStatistics(100, rowsAt(100));
    panel.appendStatistics(200, rowsAt(200));
    QCOMPARE(panel.store().valueCount(kEncoder, kEntropy, 1, 2), 2);
    panel.appendStatistics(300, rowsAt(300));
    QCOMPARE(panel.store().valueCount(kEncoder, kEntropy, 1, 2), 3);
    QCOMPARE(panel.store().steps(), (std::vector<std::int64_t>{100, 200, 300}));
    QVERIFY(std::abs(*panel.grid()->shownValue(1, 2) - 0.42) < 1e-6);
    // A third layer appears when the data has one.
    panel.appendStatistics(400, {{kEncoder, 2, 0, kEntropy, 1.25}});
    QCOMPARE(panel.grid()->layerCount(), 3);
    QCOMPARE(panel.grid()->valueText(2, 0), QStringLiteral("1.25"));
    // Heads without a value at 400 keep showing their newest one.
    QVERIFY(std::abs(*panel.grid()->shownValue(1, 2) - 0.42) < 1e-6);
    // A late probe from the past is put in order.
    panel.appendStatistics(150, {{kEncoder, 0, 0, kEntropy, 0.9}});
    QCOMPARE(panel.store().steps(), (std::vector<std::int64_t>{100, 150, 200, 300, 400}));
    panel.setCursorStep(199);
    QVERIFY(std::abs(*panel.grid()->shownValue(0, 0) - 0.9) < 1e-6);
    QVERIFY(std::abs(*panel.grid()->shownValue(0, 1) - 0.11) < 1e-6);  // no value at 150
  }

  void clickingACellPicksHeadAndStep() {
    HeadStatsGridPanel panel;
    fill(panel);
    QVERIFY(test::showAndSettle(&panel, QSize(900, 600)));
    HeadStatsGrid* grid = panel.grid();
    QSignalSpy spy(&panel, &HeadStatsGridPanel::headPicked);
    // Steps 100..300 span the plot's width: its middle is step 200, its right end 300.
    const QRect plot = grid->plotRect(1, 2);
    QTest::mouseClick(grid, Qt::LeftButton, {}, grid->cellRect(1, 2).center());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toString(), kEncoder);
    QCOMPARE(spy[0][1].toInt(), 1);
    QCOMPARE(spy[0][2].toInt(), 2);
    QCOMPARE(spy[0][3].toLongLong(), 200);
    QTest::mouseClick(grid, Qt::LeftButton, {}, QPoint(plot.right() - 2, plot.center().y()));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy[1][3].toLongLong(), 300);
    QTest::mouseClick(grid, Qt::LeftButton, {}, QPoint(plot.left() + 1, plot.center().y()));
    QCOMPARE(spy[2][3].toLongLong(), 100);
    // Outside the cells nothing is picked.
    QTest::mouseClick(grid, Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(spy.count(), 3);
  }

  void hoverTextNamesHeadValueAndStep() {
    HeadStatsGridPanel panel;
    fill(panel);
    QVERIFY(test::showAndSettle(&panel, QSize(900, 600)));
    HeadStatsGrid* grid = panel.grid();
    QCOMPARE(grid->hoverText(grid->cellRect(1, 2).center()),
             QStringLiteral("encoder layer 1 head 2 — entropy 0.32 at step 200"));
    panel.appendStatistics(1200, {{kEncoder, 0, 0, kEntropy, 0.5}});
    const QRect plot = grid->plotRect(0, 0);
    QCOMPARE(grid->hoverText(QPoint(plot.right(), plot.center().y())),
             QStringLiteral("encoder layer 0 head 0 — entropy 0.50 at step 1,200"));
    QVERIFY(grid->hoverText(QPoint(1, 1)).isEmpty());
  }

  void notesAreListedNewestFirstAndPickTheirHead() {
    HeadStatsGridPanel panel;
    fill(panel);
    QVERIFY(test::showAndSettle(&panel, QSize(900, 600)));
    QVERIFY(!panel.notesList()->isVisible());
    panel.addNote({200, kEncoder, 1, 2, QStringLiteral("became previous-token (0.81)")});
    panel.addNote({300, kCross, 0, 1, QStringLiteral("became diagonal (0.74)")});
    panel.addNote({100, kEncoder, 0, 0, QStringLiteral("attends to <s>")});
    test::settle();
    QVERIFY(panel.notesList()->isVisible());
    QListWidget* list = panel.notesList();
    QCOMPARE(list->count(), 3);
    QCOMPARE(list->item(0)->text(),
             QStringLiteral("step 300 · cross layer 0 head 1: became diagonal (0.74)"));
    QCOMPARE(list->item(1)->text(),
             QStringLiteral("step 200 · encoder layer 1 head 2: became previous-token (0.81)"));
    QCOMPARE(list->item(2)->text(),
             QStringLiteral("step 100 · encoder layer 0 head 0: attends to <s>"));
    // The cell's tooltip carries its newest note.
    HeadStatsGrid* grid = panel.grid();
    QVERIFY(grid->hoverText(grid->cellRect(1, 2).center())
                .endsWith(QStringLiteral("\nstep 200: became previous-token (0.81)")));

    QSignalSpy spy(&panel, &HeadStatsGridPanel::headPicked);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                      list->visualItemRect(list->item(0)).center());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy[0][0].toString(), kCross);
    QCOMPARE(spy[0][1].toInt(), 0);
    QCOMPARE(spy[0][2].toInt(), 1);
    QCOMPARE(spy[0][3].toLongLong(), 300);
    // Picking a note of another group shows that group.
    QCOMPARE(panel.currentGroup(), kCross);
    QCOMPARE(grid->layerCount(), 1);
    panel.clear();
    QCOMPARE(list->count(), 0);
  }

  void choosersSwitchGroupAndMetric() {
    HeadStatsGridPanel panel;
    fill(panel);
    QVERIFY(test::showAndSettle(&panel, QSize(900, 600)));
    HeadStatsGrid* grid = panel.grid();
    panel.metricSelector()->setCurrentIndex(panel.metricSelector()->findData(kDistance));
    QCOMPARE(grid->metric(), kDistance);
    QCOMPARE(grid->valueText(1, 2), QStringLiteral("18.0"));  // 2 * 3 * 300 / 100
    QCOMPARE(grid->valueText(0, 0), QStringLiteral("3.00"));
    panel.groupSelector()->setCurrentIndex(panel.groupSelector()->findData(kCross));
    QCOMPARE(grid->group(), kCross);
    QCOMPARE(grid->layerCount(), 1);
    QCOMPARE(grid->headCount(), 2);
    QCOMPARE(grid->valueText(0, 1), QStringLiteral("–"));  // cross has no distance
    panel.setCurrentMetric(kEntropy);
    QCOMPARE(grid->valueText(0, 1), QStringLiteral("3.00"));
    // New data keeps the choice.
    panel.appendStatistics(400, rowsAt(400));
    QCOMPARE(panel.currentGroup(), kCross);
    QCOMPARE(panel.currentMetric(), kEntropy);
  }

  void unboundedMetricsUseTheLargestValueOfAnyHead() {
    HeadStatsGridPanel panel;
    fill(panel);
    QVERIFY(test::showAndSettle(&panel, QSize(900, 600)));
    panel.setCurrentMetric(kDistance);
    QCOMPARE(panel.valueRange(), std::make_pair(0.0, 18.0));
    QCOMPARE(panel.scaleText(), QStringLiteral("scale 0 – 18.0 (largest of all heads)"));
    QVERIFY(panel.infoLabel()->text().startsWith(panel.scaleText()));
    QVERIFY(panel.infoLabel()->text().contains(QStringLiteral("Mean attended distance in tokens")));
    panel.appendStatistics(400, rowsAt(400));  // largest now 2 * 3 * 4 = 24
    QCOMPARE(panel.valueRange(), std::make_pair(0.0, 24.0));
    panel.setCurrentMetric(kMaxWeight);  // declared [0, 1]
    QCOMPARE(panel.valueRange(), std::make_pair(0.0, 1.0));
    QCOMPARE(panel.scaleText(), QStringLiteral("scale 0 – 1"));
    // The sparkline of the largest head reaches the top of its plot at step 400, the value 12
    // of layer 1 head 3 half way.
    panel.setCurrentMetric(kDistance);
    test::settle();
    HeadStatsGrid* grid = panel.grid();
    const QImage image = grid->grab().toImage();
    const QColor line = PlotTheme::fromPalette(grid->palette(), grid->font()).smoothed;
    const QRect top = grid->plotRect(1, 2);
    QVERIFY(test::countPixelsNear(image, QRect(top.right() - 3, top.top() - 1, 4, 4), line, 60) >
            0);
    const QRect half = grid->plotRect(0, 2);
    QVERIFY(test::countPixelsNear(image, QRect(half.right() - 3, half.top() - 1, 4, 4), line, 60) ==
            0);
    QVERIFY(test::countPixelsNear(image, QRect(half.right() - 3, half.center().y() - 3, 4, 7), line,
                                  60) > 0);
  }

  void largerFontsGiveLargerCellsAndScroll() {
    HeadStatsGridPanel panel;
    panel.setMetrics(fake::headStatsMetrics());
    panel.setStatistics(fake::headStatistics(12, 12, 20, 100));
    QVERIFY(test::showAndSettle(&panel, QSize(500, 400)));
    HeadStatsGrid* grid = panel.grid();
    QCOMPARE(grid->headCount(), 12);
    const QSize small = grid->minimumSizeHint();
    // 12 x 12 cells do not fit 500 x 400: the grid scrolls instead of squeezing.
    QVERIFY(panel.gridScrollArea()->horizontalScrollBar()->maximum() > 0);
    QVERIFY(panel.gridScrollArea()->verticalScrollBar()->maximum() > 0);
    QVERIFY(grid->cellRect(0, 0).width() >= grid->fontMetrics().horizontalAdvance("0.00"));
    QFont big = panel.font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    panel.setFont(big);
    test::settle();
    QVERIFY(grid->minimumSizeHint().width() > small.width() * 1.3);
    QVERIFY(grid->minimumSizeHint().height() > small.height() * 1.3);
    QVERIFY(grid->cellRect(0, 0).height() >= 2 * grid->fontMetrics().height());
  }

  void largeModelPaintsQuickly() {
    // 12 x 12 heads with 2,000 probes each: every cell's curve is reduced to its pixel columns,
    // so a full repaint stays far below a frame budget of a slow machine.
    HeadStatsGridPanel panel;
    panel.setMetrics(metrics());
    for (int p = 1; p <= 2000; ++p) {
      std::vector<HeadStatsPoint> rows;
      for (int l = 0; l < 12; ++l)
        for (int h = 0; h < 12; ++h)
          rows.push_back({kEncoder, l, h, kEntropy, 1.0 + std::sin(p * 0.01 + l + h * 0.3)});
      panel.appendStatistics(p * 10, rows);
    }
    panel.setCursorStep(12345);
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 900)));
    QCOMPARE(panel.store().valueCount(kEncoder, kEntropy, 11, 11), 2000);
    panel.grid()->grab();  // the first paint also fills glyph caches
    QElapsedTimer timer;
    timer.start();
    panel.grid()->refresh();  // new data: every curve is drawn again
    const QPixmap cold = panel.grid()->grab();
    const qint64 ms = timer.restart();
    panel.setCursorStep(15000);  // scrubbing the timeline reuses the curves
    const QPixmap warm = panel.grid()->grab();
    const qint64 warm_ms = timer.elapsed();
    qInfo("12 x 12 cells x 2,000 probes painted in %lld ms, after a cursor move in %lld ms", ms,
          warm_ms);
    QVERIFY(!cold.isNull() && !warm.isNull());
    QVERIFY(cold.toImage() != warm.toImage());  // the cursor moved
    QVERIFY2(ms < 1000, qPrintable(QString::number(ms)));
  }

  void darkPaletteDrawsDarkCells() {
    HeadStatsGridPanel panel;
    panel.setPalette(fake::darkPalette());
    fill(panel);
    QVERIFY(test::showAndSettle(&panel, QSize(900, 600)));
    const QImage image = panel.grid()->grab().toImage();
    const QRect cell = panel.grid()->cellRect(0, 0);
    // Cell background just inside the frame, left of the curve: dark, not white.
    QVERIFY(test::luma(image.pixel(cell.left() + 2, cell.bottom() - 2)) < 90);
    QVERIFY(test::luma(image.pixel(2, 2)) < 60);  // the grid's own background is Base
  }

  void rendersAtTwoSizes() {
    QTemporaryDir temp;
    const QString dir = test::shotDir(temp);
    struct Shot {
      const char* name;
      int layers, heads;
      bool dark;
      double font_scale;
    };
    const Shot shots[] = {{"4x6", 4, 6, false, 1.0},
                          {"4x6_dark", 4, 6, true, 1.0},
                          {"12x12", 12, 12, false, 1.0},
                          {"4x6_font150", 4, 6, true, 1.5}};
    for (const Shot& shot : shots) {
      for (const QSize size : {QSize(900, 600), QSize(500, 400)}) {
        HeadStatsGridPanel panel;
        if (shot.dark) panel.setPalette(fake::darkPalette());
        QFont font = panel.font();
        font.setPointSizeF(font.pointSizeF() * shot.font_scale);
        panel.setFont(font);
        panel.setMetrics(fake::headStatsMetrics());
        panel.setStatistics(fake::headStatistics(shot.layers, shot.heads, 48, 100));
        panel.setNotes(fake::headKindNotes());
        panel.setCursorStep(3000);
        QVERIFY(test::showAndSettle(&panel, size));
        const QString path = QDir(dir).filePath(QStringLiteral("head_stats_%1_%2x%3.png")
                                                    .arg(QLatin1String(shot.name))
                                                    .arg(size.width())
                                                    .arg(size.height()));
        const QImage image = panel.grab().toImage();
        QVERIFY(image.save(path));
        QVERIFY(!test::isUniform(image, panel.grid()->cellRect(0, 0)));
        // The grid keeps most of the height; the notes start at a few lines.
        QVERIFY(panel.gridScrollArea()->height() > panel.notesList()->height());
      }
    }
  }
};

QTEST_MAIN(HeadStatsGridTest)
#include "head_stats_grid_test.moc"
