// AttentionHeadGridPanel: selectors follow the snapshot, the grid shows every head, clicking
// enlarges a head with token labels, colours follow the weights, CLS overlay, export.

#include "widgets/attention_head_grid_panel.h"
#include "widget_test_util.h"
#include "widgets/attention_head_grid.h"
#include "widgets/attention_heatmap_view.h"
#include "widgets/cls_attention_overlay.h"

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>

using namespace ascope;

namespace {

const QStringList kTokens = {"the", "cat", "sat", "down", "."};

// Head h of layer l puts most weight on key (q + h) % n, with `peak` there and the rest shared.
LabeledMatrix head(int l, int h, int n = 5, bool causal = false) {
  LabeledMatrix m(n, n);
  m.row_labels = kTokens.mid(0, n);
  m.col_labels = kTokens.mid(0, n);
  for (int q = 0; q < n; ++q) {
    const int allowed = causal ? q + 1 : n;
    const int target = causal ? q : (q + h) % n;
    for (int k = 0; k < allowed; ++k)
      m.at(q, k) = k == target ? 0.6f + 0.05f * l : (0.4f - 0.05f * l) / std::max(1, allowed - 1);
    if (allowed == 1) m.at(q, 0) = 1.0f;
  }
  return m;
}

AttentionPlotData snapshot(int layers = 3, int heads = 4) {
  AttentionPlotData s;
  s.step = 100;
  AttentionPlotGroup encoder{QStringLiteral("encoder self"), "query", "key", {}};
  AttentionPlotGroup decoder{QStringLiteral("decoder self"), "query", "key", {}};
  for (int l = 0; l < layers; ++l) {
    std::vector<LabeledMatrix> enc, dec;
    for (int h = 0; h < heads; ++h) enc.push_back(head(l, h));
    for (int h = 0; h < 2; ++h) dec.push_back(head(l, h, 5, true));
    encoder.layers.push_back(enc);
    decoder.layers.push_back(dec);
  }
  s.groups = {encoder, decoder};
  return s;
}

QPoint cellCenter(QCPColorMap* map, int row, int col) {
  double x = 0, y = 0;
  map->coordsToPixels(col, row, x, y);
  return QPoint(qRound(x), qRound(y));
}

}  // namespace

class AttentionHeadGridPanelTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void emptyPanelShowsHint() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel));
    auto* stack = panel.findChild<QStackedWidget*>();
    QCOMPARE(stack->currentIndex(), 0);
    auto* hint = qobject_cast<QLabel*>(stack->currentWidget());
    QVERIFY(hint);
    QCOMPARE(hint->text(), QStringLiteral("Attention appears after the first probe step"));
    panel.setSnapshot(snapshot());
    QCOMPARE(stack->currentIndex(), 1);
    panel.clear();
    QCOMPARE(stack->currentIndex(), 0);
  }

  void selectorsAndGridFollowTheSnapshot() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot(3, 4));
    test::settle();
    QCOMPARE(panel.groupSelector()->count(), 2);
    QVERIFY(panel.groupSelector()->isVisible());
    QCOMPARE(panel.layerSelector()->count(), 3);
    QCOMPARE(panel.headGrid()->headCount(), 4);
    for (int h = 0; h < 4; ++h)
      QCOMPARE(panel.headGrid()->headLabel(h)->text(), QStringLiteral("head %1").arg(h));
    panel.groupSelector()->setCurrentIndex(1);  // decoder self: 2 heads
    QCOMPARE(panel.currentGroup(), 1);
    QCOMPARE(panel.headGrid()->headCount(), 2);
    panel.layerSelector()->setCurrentIndex(2);
    QCOMPARE(panel.currentLayer(), 2);
    // a single group needs no chooser
    AttentionPlotData one = snapshot();
    one.groups.resize(1);
    panel.setSnapshot(one);
    QVERIFY(!panel.groupSelector()->isVisible());
    QCOMPARE(panel.groupCount(), 1);
  }

  void gridSharesOneColourRangeAndRendersEveryHead() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot());
    panel.setCurrentLayer(1);
    test::settle();
    AttentionHeadGrid* grid = panel.headGrid();
    QCOMPARE(grid->colorScale()->dataRange().lower, 0.0);
    QVERIFY(qAbs(grid->colorScale()->dataRange().upper - 0.65) < 1e-6);  // max over the layer
    grid->replot();
    const QImage image = grid->grab().toImage();
    for (int h = 0; h < 4; ++h) {
      QCPColorMap* map = grid->headMap(h);
      QCOMPARE(map->data()->keySize(), 5);
      QCOMPARE(map->data()->valueSize(), 5);
      QVERIFY(!test::isUniform(image, grid->headRect(h)->rect().adjusted(3, 3, -3, -3)));
      // the cell with the head's peak weight is brighter than the others in its row
      const QRgb peak = image.pixel(cellCenter(map, 0, h % 5));
      const QRgb other = image.pixel(cellCenter(map, 0, (h + 1) % 5));
      QVERIFY(test::luma(peak) > test::luma(other) + 40);
    }
  }

  void clickingAHeadEnlargesItWithTokenLabels() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot());
    test::settle();
    QSignalSpy spy(&panel, &AttentionHeadGridPanel::headSelected);
    AttentionHeadGrid* grid = panel.headGrid();
    grid->replot();
    QTest::mouseClick(grid, Qt::LeftButton, Qt::NoModifier, grid->headRect(2)->rect().center());
    QCOMPARE(panel.currentHead(), 2);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(grid->selectedHead(), 2);
    AttentionHeatmapView* view = panel.headView();
    QVERIFY(view->title().contains(QStringLiteral("head 2")));
    QCOMPARE(view->matrix().values, head(0, 2).values);
    test::settle();
    view->replot();
    // tick labels are the tokens: rows = queries, columns = keys
    QCOMPARE(view->tickLabels(Qt::Horizontal).values(), kTokens);
    QCOMPARE(view->tickLabels(Qt::Vertical).values(), kTokens);
    QCOMPARE(view->xAxis->label(), QStringLiteral("key"));
    QCOMPARE(view->yAxis->label(), QStringLiteral("query"));
    // the known maximum cell is the brightest in the rendered view
    const QImage image = view->grab().toImage();
    double best = -1;
    QPoint brightest;
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 5; ++c) {
        const QPoint p = cellCenter(view->colorMap(), r, c);
        if (test::luma(image.pixel(p)) > best) {
          best = test::luma(image.pixel(p));
          brightest = QPoint(c, r);
        }
      }
    QCOMPARE(view->matrix().at(brightest.y(), brightest.x()), 0.6f);
    QCOMPARE(brightest.x(), (brightest.y() + 2) % 5);
    // hover: "query → key: weight"
    const QString text = view->hoverText(cellCenter(view->colorMap(), 1, 3));
    QVERIFY2(text.contains(QStringLiteral("cat")) && text.contains(QStringLiteral("down")) &&
                 text.contains(QStringLiteral("0.600")),
             qPrintable(text));
  }

  void causalMaskIsZeroAboveTheDiagonal() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot());
    panel.setCurrentGroup(1);
    panel.setCurrentHead(0);
    test::settle();
    AttentionHeatmapView* view = panel.headView();
    view->replot();
    const QImage image = view->grab().toImage();
    const QRgb zero = view->colorMap()->gradient().color(0.0, view->dataRange());
    for (int q = 0; q < 5; ++q)
      for (int k = q + 1; k < 5; ++k)
        QVERIFY(test::colorDistance(image.pixel(cellCenter(view->colorMap(), q, k)), QColor(zero)) <
                6);
  }

  void selectionSurvivesNewSnapshots() {
    AttentionHeadGridPanel panel;
    panel.setSnapshot(snapshot());
    panel.setCurrentGroup(1);
    panel.setCurrentLayer(2);
    panel.setCurrentHead(1);
    AttentionPlotData next = snapshot();
    next.step = 200;
    panel.setSnapshot(next);
    QCOMPARE(panel.currentGroup(), 1);
    QCOMPARE(panel.currentLayer(), 2);
    QCOMPARE(panel.currentHead(), 1);
    next.groups.erase(next.groups.begin() + 1);  // decoder gone: back to the first group
    panel.setSnapshot(next);
    QCOMPARE(panel.currentGroup(), 0);
  }

  void clsOverlayShowsPatchWeightsOfTheClsRow() {
    AttentionPlotData s;
    AttentionPlotGroup g{QStringLiteral("encoder self"), "query", "key", {}};
    LabeledMatrix m(5, 5, 0.1f);  // CLS + 2x2 patches
    for (int k = 0; k < 5; ++k) m.at(0, k) = 0.1f * (k + 1);
    g.layers = {{m}};
    s.groups = {g};
    s.image.image = RgbImage{4, 4, 3, std::vector<std::uint8_t>(48, 128)};
    s.image.grid_rows = 2;
    s.image.grid_cols = 2;
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(s);
    QVERIFY(panel.clsOverlay()->isVisible());
    QCOMPARE(panel.clsOverlay()->patchWeights(), std::vector<float>({0.2f, 0.3f, 0.4f, 0.5f}));
    panel.setSnapshot(snapshot());  // text: no overlay
    QVERIFY(!panel.clsOverlay()->isVisible());
  }

  void exportsCsvAndFigures() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot(3, 4));
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("a.csv"));
    QVERIFY(panel.exportCsv(csv).ok());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("layer,head,query_index,query,key_index,key,weight"));
    QCOMPARE(lines.size(), 1 + 3 * 4 * 25);
    QCOMPARE(lines[1], QStringLiteral("0,0,0,the,0,the,0.6"));
    QCOMPARE(panel.exportBaseName(), QStringLiteral("attention_encoder_self_layer0"));
    const QString png = dir.filePath(QStringLiteral("a.png"));
    QVERIFY(panel.exportImage(png, ImageFormat::Png, ExportSize{}).ok());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1600, 1000));
    // the colour scale is part of the figure: the heads only use the colours of 0.1 and 0.6,
    // the mid-range teal of viridis can only come from the scale bar
    QVERIFY(test::countPixelsNear(image, image.rect(), QColor(0x21, 0x91, 0x8c), 12) > 20);
    QVERIFY(!test::isUniform(image, QRect(0, 0, 1300, 1000)));
  }
};

QTEST_MAIN(AttentionHeadGridPanelTest)
#include "attention_head_grid_panel_test.moc"
