// AttentionHeadGridPanel: selectors follow the snapshot, the grid shows every head, clicking
// enlarges a head with token labels, colours follow the chosen scale, masked cells are grey,
// hover text, dense labels, keyboard, CLS overlay, export; predict then reveal (a guess scored,
// entered by clicks, keys or a tally, nothing of the hidden head on screen meanwhile).

#include "widgets/attention/attention_head_grid_panel.h"
#include "widget_test_util.h"
#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/attention/cls_attention_overlay.h"
#include "widgets/attention/masked_cell_legend.h"
#include "widgets/attention/prediction_round.h"
#include "widgets/attention/word_attention.h"
#include "widgets/quiz/attention_guess.h"
#include "widgets/quiz/prediction_bar.h"

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>

#include <cmath>
#include <limits>

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

AttentionPlotGroup group(const QString& name, bool causal = false) {
  AttentionPlotGroup g;
  g.name = name;
  g.causal = causal;
  return g;
}

AttentionPlotData snapshot(int layers = 3, int heads = 4) {
  AttentionPlotData s;
  s.step = 100;
  AttentionPlotGroup encoder = group(QStringLiteral("encoder self"));
  AttentionPlotGroup decoder = group(QStringLiteral("decoder self"), true);
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

// n tokens "t0".."t{n-1}"; query q puts `peak` on key q and shares the rest evenly.
LabeledMatrix peakedHead(int n, float peak) {
  LabeledMatrix m(n, n, (1.0f - peak) / std::max(1, n - 1));
  for (int i = 0; i < n; ++i) {
    m.row_labels << QStringLiteral("t%1").arg(i);
    m.col_labels << QStringLiteral("t%1").arg(i);
    m.at(i, i) = peak;
  }
  return m;
}

// One group of one layer with a head per peak.
AttentionPlotData peakedSnapshot(std::initializer_list<float> peaks, int n = 5) {
  AttentionPlotData s;
  AttentionPlotGroup g = group(QStringLiteral("encoder self"));
  std::vector<LabeledMatrix> heads;
  for (float peak : peaks) heads.push_back(peakedHead(n, peak));
  g.layers = {heads};
  s.groups = {g};
  return s;
}

// The pixel at a cell of the enlarged head, rendered as on screen.
QRgb viewPixel(AttentionHeatmapView* view, int row, int col) {
  view->replot();
  return view->grab().toImage().pixel(cellCenter(view->colorMap(), row, col));
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

  void gridDrawsEachHeadOnItsRunScaleAndRendersEveryHead() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot());
    panel.setCurrentLayer(1);
    test::settle();
    AttentionHeadGrid* grid = panel.headGrid();
    // Run scale, head by head (one top for the whole group, layer 2's 0.7, washed
    // layer 1 out): each head of layer 1 up to its own 0.65; the bar reads fractions of it.
    QCOMPARE(grid->colorScale()->dataRange(), QCPRange(0.0, 1.0));
    QVERIFY(grid->colorScale()->label().contains(QStringLiteral("run max")));
    for (int h = 0; h < 4; ++h) {
      QCOMPARE(grid->headColorRange(h).lower, 0.0);
      QVERIFY(qAbs(grid->headColorRange(h).upper - 0.65) < 1e-6);
    }
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
    QCOMPARE(view->weights().values, head(0, 2).values);
    // The snapshot's own matrix, shared with the view: not a copy of it.
    QCOMPARE(view->weights().values.data(), panel.snapshot().groups[0].layers[0][2].values.data());
    QCOMPARE(view->matrix().values, head(0, 2).values);  // drawn as given: nothing masked
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
    QCOMPARE(view->hoverText(cellCenter(view->colorMap(), 1, 3)),
             QStringLiteral("cat → down: 0.60"));
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
    AttentionPlotGroup g = group(QStringLiteral("encoder self"));
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
    QCOMPARE(lines.first(),
             QStringLiteral("step,group,layer,head,query_index,query,key_index,key,weight"));
    QCOMPARE(lines.size(), 1 + 3 * 4 * 25 + 3 * 2 * 25);  // every group, not the one shown
    QCOMPARE(lines[1], QStringLiteral("100,encoder self,0,0,0,the,0,the,0.6"));
    QCOMPARE(panel.exportBaseName(), QStringLiteral("attention_encoder_self_layer0"));
    const QString png = dir.filePath(QStringLiteral("a.png"));
    QVERIFY(panel.exportImage(png, ImageFormat::Png, ExportSize{}).ok());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(2560, 1440));  // a 1280 x 720 slide at 2x
    // the colour scale is part of the figure: the heads only use the colours of 0.1 and 0.6,
    // the mid-range teal of viridis can only come from the scale bar
    QVERIFY(test::countPixelsNear(image, image.rect(), QColor(0x21, 0x91, 0x8c), 12) > 20);
    QVERIFY(!test::isUniform(image, QRect(0, 0, 1300, 1000)));
  }

  // --- colour scales ---

  void runScaleIsTheDefaultAndKeepsTheLargestWeightSeen() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    QCOMPARE(panel.colorScale(), AttentionColorScale::Run);
    auto* selector = panel.findChild<QComboBox*>(QStringLiteral("colorScaleSelector"));
    QVERIFY(selector);
    QCOMPARE(selector->currentText(), QStringLiteral("run"));
    panel.setSnapshot(peakedSnapshot({0.9f, 0.3f}));  // a later, sharper step
    panel.setSnapshot(peakedSnapshot({0.5f, 0.2f}));  // scrubbed back to an early one
    test::settle();
    // Each head keeps its own largest weight: head 0 its 0.9, head 1 its 0.3 (not head 0's 0.9,
    // under which head 1 would be dark at every step).
    QCOMPARE(panel.runMaxWeight(), double(0.9f));
    QCOMPARE(panel.headGrid()->headColorRange(0), QCPRange(0.0, double(0.9f)));
    QCOMPARE(panel.headGrid()->headColorRange(1), QCPRange(0.0, double(0.3f)));
    QCOMPARE(panel.headView()->dataRange(), QCPRange(0.0, double(0.9f)));
    QVERIFY(panel.headView()->colorScale()->label().contains(QStringLiteral("run scale")));
    panel.setCurrentHead(1);
    QCOMPARE(panel.runMaxWeight(), double(0.3f));
    QCOMPARE(panel.headView()->dataRange(), QCPRange(0.0, double(0.3f)));
    panel.setCurrentHead(0);
    // the early step is drawn dim on the run's scale: its 0.5 peak is not the top colour
    const QRgb top = panel.headView()->colorMap()->gradient().color(0.9, QCPRange(0.0, 0.9));
    QVERIFY(test::colorDistance(viewPixel(panel.headView(), 0, 0), QColor(top)) > 100);

    panel.clear();  // a new run: a new scale
    panel.setSnapshot(peakedSnapshot({0.5f, 0.4f}));
    QCOMPARE(panel.headGrid()->headColorRange(0), QCPRange(0.0, double(0.5f)));
    // The opened run's largest weights over all its snapshots, head by head.
    AttentionRunMaxima opened;
    opened.add(peakedSnapshot({0.95f, 0.45f}).groups.front());
    panel.setRunMaxima(QStringLiteral("encoder self"), opened);
    QCOMPARE(panel.headGrid()->headColorRange(0), QCPRange(0.0, double(0.95f)));
    QCOMPARE(panel.headGrid()->headColorRange(1), QCPRange(0.0, double(0.45f)));
    QCOMPARE(panel.headView()->dataRange(), QCPRange(0.0, double(0.95f)));
  }

  void askedInputDoesNotRaiseTheRunScale() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(peakedSnapshot({0.5f, 0.4f}));
    panel.setSnapshot(peakedSnapshot({0.9f, 0.8f}), false);  // the user's own input
    QCOMPARE(panel.runMaxWeight(), double(0.9f));            // drawn on a scale that holds it
    panel.setSnapshot(peakedSnapshot({0.5f, 0.4f}));         // back to the run
    QCOMPARE(panel.runMaxWeight(), double(0.5f));
    QCOMPARE(panel.headGrid()->headColorRange(0), QCPRange(0.0, double(0.5f)));
    QCOMPARE(panel.headGrid()->headColorRange(1), QCPRange(0.0, double(0.4f)));
  }

  void runScaleIgnoresTheAlwaysOneFirstRowOfCausalHeads() {
    AttentionPlotData s;
    AttentionPlotGroup g = group(QStringLiteral("decoder self"), true);
    g.layers = {{head(0, 0, 5, true)}};  // row 0 is 1.0; every other row peaks at 0.6
    s.groups = {g};
    AttentionHeadGridPanel panel;
    panel.setSnapshot(s);
    QCOMPARE(panel.runMaxWeight(), double(0.6f));
  }

  void fixedScaleIsZeroToOne() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(peakedSnapshot({0.5f, 0.4f}));
    auto* selector = panel.findChild<QComboBox*>(QStringLiteral("colorScaleSelector"));
    selector->setCurrentIndex(selector->findText(QStringLiteral("fixed 0–1")));
    QCOMPARE(panel.colorScale(), AttentionColorScale::Fixed);
    QCOMPARE(panel.headGrid()->colorScale()->dataRange(), QCPRange(0.0, 1.0));
    QCOMPARE(panel.headGrid()->headColorRange(1), QCPRange(0.0, 1.0));
    QCOMPARE(panel.headView()->dataRange(), QCPRange(0.0, 1.0));
    QVERIFY(panel.headGrid()->colorScale()->label().contains(QStringLiteral("fixed 0–1")));
    QVERIFY(panel.headView()->colorScale()->label().contains(QStringLiteral("fixed 0–1")));
  }

  void perHeadScaleGivesEachHeadItsOwnRange() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(peakedSnapshot({0.9f, 0.5f}));
    panel.setColorScale(AttentionColorScale::PerHead);
    QCOMPARE(panel.colorScaleSelector()->currentText(), QStringLiteral("per head"));
    AttentionHeadGrid* grid = panel.headGrid();
    QCOMPARE(grid->headColorRange(0), QCPRange(0.0, double(0.9f)));
    QCOMPARE(grid->headColorRange(1), QCPRange(0.0, double(0.5f)));
    QCOMPARE(grid->colorScale()->dataRange(), QCPRange(0.0, 1.0));  // fractions of a head's max
    QVERIFY(grid->colorScale()->label().contains(QStringLiteral("head")));
    panel.setCurrentHead(1);
    QCOMPARE(panel.headView()->dataRange(), QCPRange(0.0, double(0.5f)));
    // both peaks are drawn in the top colour although their weights differ
    test::settle();
    grid->replot();
    const QImage image = grid->grab().toImage();
    const QRgb peak0 = image.pixel(cellCenter(grid->headMap(0), 2, 2));
    const QRgb peak1 = image.pixel(cellCenter(grid->headMap(1), 2, 2));
    QVERIFY(test::colorDistance(peak0, QColor(peak1)) < 10);
  }

  void perRowScaleNormalisesEveryRow() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    AttentionPlotData s = peakedSnapshot({0.9f});
    s.groups[0].layers[0][0].at(3, 3) = 0.3f;  // a row with a low peak
    panel.setSnapshot(s);
    panel.setColorScale(AttentionColorScale::PerRow);
    AttentionHeatmapView* view = panel.headView();
    QCOMPARE(view->dataRange(), QCPRange(0.0, 1.0));
    QVERIFY(view->colorScale()->label().contains(QStringLiteral("row")));
    QVERIFY(panel.headGrid()->colorScale()->label().contains(QStringLiteral("row")));
    const LabeledMatrix& drawn = view->matrix();
    for (int r = 0; r < drawn.rows; ++r) {
      float row_max = 0.0f;
      for (int c = 0; c < drawn.cols; ++c) row_max = std::max(row_max, drawn.at(r, c));
      QCOMPARE(row_max, 1.0f);
    }
    QCOMPARE(drawn.at(3, 0), float(0.025f / 0.3f));
    // hover still tells the weight itself
    test::settle();
    view->replot();
    QCOMPARE(view->hoverText(cellCenter(view->colorMap(), 3, 3)), QStringLiteral("t3 → t3: 0.30"));
  }

  // --- masked cells ---

  void causalCellsAreDrawnAndReportedAsMasked() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot());
    panel.setCurrentGroup(1);  // decoder self, causal
    panel.setCurrentHead(0);
    test::settle();
    AttentionHeatmapView* view = panel.headView();
    const QColor masked = AttentionHeadDisplay::maskedColor(view->theme());
    const QColor lowest(view->colorMap()->gradient().color(0.0, view->dataRange()));
    QVERIFY(test::colorDistance(masked.rgb(), lowest) > 150);
    view->replot();
    const QImage image = view->grab().toImage();
    for (int q = 0; q < 5; ++q) {
      for (int k = q + 1; k < 5; ++k) {
        const QRgb pixel = image.pixel(cellCenter(view->colorMap(), q, k));
        QVERIFY(test::colorDistance(pixel, masked) < 6);
        QVERIFY(test::colorDistance(pixel, lowest) > 150);
      }
    }
    QCOMPARE(view->hoverText(cellCenter(view->colorMap(), 1, 3)),
             QStringLiteral("cat → down: masked (causal)"));
    QVERIFY(view->maskedLegend()->isShown());
    QCOMPARE(view->maskedLegend()->text(), QStringLiteral("masked (causal)"));
    // the legend is drawn: its swatch is the only masked grey outside the cells
    const QRect legend = view->maskedLegend()->outerRect();
    QVERIFY(test::countPixelsNear(image, legend, masked, 6) > 20);

    // the grid thumbnails too
    AttentionHeadGrid* grid = panel.headGrid();
    grid->replot();
    const QImage thumbs = grid->grab().toImage();
    const QRgb thumb_pixel = thumbs.pixel(cellCenter(grid->headMap(0), 0, 4));
    QVERIFY(test::colorDistance(thumb_pixel, masked) < 6);
    QVERIFY(grid->maskedLegend()->isShown());
    QVERIFY(grid->hoverText(cellCenter(grid->headMap(0), 0, 4))
                .endsWith(QStringLiteral("masked (causal)")));

    panel.setCurrentGroup(0);  // encoder self: nothing masked, no legend
    QVERIFY(!view->maskedLegend()->isShown());
    QVERIFY(!grid->maskedLegend()->isShown());
  }

  void cellsWithoutValueLookMasked() {
    AttentionPlotData s = peakedSnapshot({0.9f});
    s.groups[0].layers[0][0].at(1, 2) = std::numeric_limits<float>::quiet_NaN();
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(s);
    test::settle();
    AttentionHeatmapView* view = panel.headView();
    const QColor masked = AttentionHeadDisplay::maskedColor(view->theme());
    QVERIFY(test::colorDistance(viewPixel(view, 1, 2), masked) < 6);
    QVERIFY(test::colorDistance(viewPixel(view, 1, 3), masked) > 60);
    QCOMPARE(view->hoverText(cellCenter(view->colorMap(), 1, 2)),
             QStringLiteral("t1 → t2: masked"));
    QCOMPARE(view->maskedLegend()->text(), QStringLiteral("masked"));
    QVERIFY(view->maskedLegend()->isShown());
  }

  // --- hover text and decoder labels ---

  void decoderRowsShowWhatEachTokenPredicts() {
    AttentionPlotData s = snapshot();
    s.groups[1].row_predictions = {"cat", "sat", "down", ".", "<eos>"};
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(s);
    panel.setCurrentGroup(1);
    panel.setCurrentHead(0);
    test::settle();
    AttentionHeatmapView* view = panel.headView();
    view->replot();
    QCOMPARE(view->hoverText(cellCenter(view->colorMap(), 2, 1)),
             QStringLiteral("sat (predicts down) → cat: 0.20"));
    QCOMPARE(view->tickLabels(Qt::Vertical).values(),
             QStringList({"the → cat", "cat → sat", "sat → down", "down → .", ". → <eos>"}));
    QCOMPARE(view->tickLabels(Qt::Horizontal).values(), kTokens);
    QCOMPARE(view->yAxis->label(), QStringLiteral("fed token → predicts"));
    // the grid hover names the head
    AttentionHeadGrid* grid = panel.headGrid();
    grid->replot();
    QCOMPARE(grid->hoverText(cellCenter(grid->headMap(1), 2, 2)),
             QStringLiteral("head 1 · sat (predicts down) → sat: 0.60"));
    // encoder rows stay plain tokens
    panel.setCurrentGroup(0);
    view->replot();
    QCOMPARE(view->yAxis->label(), QStringLiteral("query"));
    QCOMPARE(view->tickLabels(Qt::Vertical).values(), kTokens);
  }

  void smallWeightsKeepTheirDigits() {
    QCOMPARE(AttentionHeadDisplay::formatWeight(0.42), QStringLiteral("0.42"));
    QCOMPARE(AttentionHeadDisplay::formatWeight(0.0019), QStringLiteral("0.0019"));
    QCOMPARE(AttentionHeadDisplay::formatWeight(0.0), QStringLiteral("0.00"));
  }

  // --- labels and zoom ---

  // The enlarged head keeps its dock's size (square cells, no scroll bars): every token is
  // labelled where each row has a line height, else every k-th one, each with its own token.
  void tokensAreLabelledEveryKthWhereNotAllFit() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(2400, 1600)));
    panel.setSnapshot(peakedSnapshot({0.9f}, 100));
    test::settle();
    AttentionHeatmapView* view = panel.headView();
    view->replot();
    test::settle();
    int row_stride = 0;
    for (const Qt::Orientation axis : {Qt::Horizontal, Qt::Vertical}) {
      const QMap<double, QString> labels = view->tickLabels(axis);
      QVERIFY(labels.size() >= 2);
      const int k = static_cast<int>(labels.firstKey() + 0.5) == 0
                        ? static_cast<int>(std::next(labels.begin()).key() + 0.5)
                        : 0;
      QVERIFY(k >= 1);
      QCOMPARE(labels.size(), (100 + k - 1) / k);
      for (auto it = labels.begin(); it != labels.end(); ++it) {
        const int token = static_cast<int>(it.key() + 0.5);
        QCOMPARE(token % k, 0);
        QCOMPARE(it.value(), QStringLiteral("t%1").arg(token));
      }
      if (axis == Qt::Vertical) row_stride = k;
    }
    // readable: never below 7 pt, and every label shown gets at least its line height
    const QFont font = view->yAxis->tickLabelFont();
    QVERIFY(font.pointSizeF() >= AttentionHeatmapView::kMinLabelPointSize);
    const double pitch = view->heatmapRect()->height() / 100.0 * row_stride;
    QVERIFY2(pitch >= QFontMetricsF(font).ascent(), qPrintable(QString::number(pitch)));
    QVERIFY(qAbs(view->heatmapRect()->width() - view->heatmapRect()->height()) <= 2);  // square
  }

  // At 1280 x 720 the enlarged head was a strip of six rows with scroll bars. It fills
  // its place with square cells and labels what fits; the wheel zooms in to read the rest.
  void enlargedHeadGrowsWithItsDockAndThinsWhatDoesNotFit() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(700, 420)));
    panel.setSnapshot(peakedSnapshot({0.9f}, 100));
    test::settle();
    AttentionHeatmapView* view = panel.headView();
    view->replot();
    test::settle();
    QVERIFY2(view->height() <= panel.height(), qPrintable(QString::number(view->height())));
    const int small_side = view->heatmapRect()->height();
    QVERIFY(small_side > 100);
    QVERIFY(qAbs(view->heatmapRect()->width() - small_side) <= 2);  // square
    const QMap<double, QString> thinned = view->tickLabels(Qt::Vertical);
    QVERIFY(thinned.size() < 100);
    QCOMPARE(thinned.value(0), QStringLiteral("t0"));
    const QFont font = view->yAxis->tickLabelFont();
    QVERIFY(font.pointSizeF() >= AttentionHeatmapView::kMinLabelPointSize);
    const double label_pitch = small_side / 100.0 * (100.0 / thinned.size());
    QVERIFY2(label_pitch >= QFontMetricsF(font).ascent(), qPrintable(QString::number(label_pitch)));

    // A larger dock: a larger head.
    panel.resize(1400, 900);
    test::settle();
    view->replot();
    test::settle();
    QVERIFY2(view->heatmapRect()->height() > small_side + 100,
             qPrintable(QString::number(view->heatmapRect()->height())));

    // Zoomed in to ten tokens, every one is labelled.
    view->xAxis->setRange(-0.5, 9.5);
    view->yAxis->setRange(-0.5, 9.5);
    view->replot();
    test::settle();
    QCOMPARE(view->tickLabels(Qt::Vertical).size(), 100);
  }

  void longSequencesAreThinnedAndFillInWhenZoomed() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(peakedSnapshot({0.9f}, 200));
    test::settle();
    AttentionHeatmapView* view = panel.headView();
    view->replot();
    const int thinned = view->tickLabels(Qt::Vertical).size();
    QVERIFY(thinned < 200);
    QCOMPARE(view->yAxis->tickLabelFont(), view->theme().font);
    // the wheel zooms in on the cursor; labels fill in
    const QPoint centre = view->heatmapRect()->rect().center();
    for (int i = 0; i < 15; ++i) {
      QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                        Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(view, &wheel);
    }
    view->replot();
    QVERIFY(view->yAxis->range().size() < 20);
    const QMap<double, QString> ticks = view->tickLabels(Qt::Vertical);
    const double first = std::ceil(view->yAxis->range().lower);
    QVERIFY(ticks.contains(first) && ticks.contains(first + 1));
    // zooming out stops at the whole head
    for (int i = 0; i < 40; ++i) {
      QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton,
                        Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(view, &wheel);
    }
    QCOMPARE(view->yAxis->range(), QCPRange(-0.5, 199.5));
    QCOMPARE(view->xAxis->range(), QCPRange(-0.5, 199.5));
  }

  void largeHeadsArePooledInThumbnailsKeepingPeaks() {
    // a previous-token head: every query looks at the key just before it
    const int n = 300;
    LabeledMatrix m(n, n, 0.1f / n);
    for (int q = 1; q < n; ++q) m.at(q, q - 1) = 0.9f;
    AttentionPlotData s;
    AttentionPlotGroup g = group(QStringLiteral("encoder self"));
    g.layers = {std::vector<LabeledMatrix>(6, m)};
    s.groups = {g};
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(900, 500)));
    panel.setSnapshot(s);
    test::settle();
    AttentionHeadGrid* grid = panel.headGrid();
    grid->replot();
    const int pool = grid->thumbnailPool();
    QVERIFY(pool > 1);
    QCPColorMapData* data = grid->headMap(0)->data();
    QCOMPARE(data->keySize(), (n + pool - 1) / pool);
    for (int b = 0; b < data->keySize(); ++b) QCOMPARE(data->cell(b, b), double(0.9f));
    // hover names the cell whose weight the pooled pixel shows
    QVERIFY(grid->hoverText(cellCenter(grid->headMap(0), 120, 119)).endsWith(": 0.90"));
  }

  // --- keyboard ---

  void piecesBecomeWordsSummedOverKeysAndAveragedOverQueries() {
    // "the gatt ##ino ." attending: rows and columns are pieces.
    LabeledMatrix m(4, 4);
    m.row_labels = m.col_labels = QStringList{"the", "gatt", "##ino", "."};
    const float w[4][4] = {{0.7f, 0.1f, 0.1f, 0.1f},
                           {0.2f, 0.3f, 0.4f, 0.1f},
                           {0.0f, 0.5f, 0.5f, 0.0f},
                           {0.25f, 0.25f, 0.25f, 0.25f}};
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) m.at(r, c) = w[r][c];
    const LabeledMatrix words = WordAttention::ofMatrix(m);
    QCOMPARE(words.row_labels, (QStringList{"the", "gattino", "."}));
    // A word spelt from a lone word start (a visible space) and bytes: the word, not the space.
    const QStringList zebra = {"the", QString(QChar(0x2423)), "##z", "##ebra"};
    QCOMPARE(WordAttention::words(zebra, WordAttention::wordStarts(zebra)),
             (QStringList{"the", "zebra"}));
    QCOMPARE(words.col_labels, words.row_labels);
    QCOMPARE(words.rows, 3);
    QVERIFY(std::abs(words.at(0, 1) - 0.2f) < 1e-6);               // sum over key pieces
    QVERIFY(std::abs(words.at(1, 1) - (0.7f + 1.0f) / 2) < 1e-6);  // mean over query pieces
    QVERIFY(std::abs(words.at(1, 0) - 0.1f) < 1e-6);
    for (int r = 0; r < words.rows; ++r) {
      float sum = 0;
      for (int c = 0; c < words.cols; ++c) sum += words.at(r, c);
      QVERIFY(std::abs(sum - 1.0f) < 1e-5);  // a row still sums to 1
    }
    // A causal head: a word block with every cell masked stays masked.
    LabeledMatrix causal = m;
    for (int r = 0; r < 4; ++r)
      for (int c = r + 1; c < 4; ++c) causal.at(r, c) = std::numeric_limits<float>::quiet_NaN();
    const LabeledMatrix causal_words = WordAttention::ofMatrix(causal);
    QVERIFY(std::isnan(causal_words.at(0, 1)));
    QVERIFY(!std::isnan(causal_words.at(1, 1)));  // "gatt" sees itself
    QVERIFY(std::isnan(causal_words.at(1, 2)));

    // The panel offers pieces or words only for a snapshot of pieces, and draws what is chosen.
    AttentionHeadGridPanel panel;
    panel.setSnapshot(snapshot());
    QVERIFY(!panel.offersWords());
    AttentionPlotData pieces;
    AttentionPlotGroup g = group("encoder self");
    g.layers = {{m, m}};
    pieces.groups.push_back(g);
    panel.show();
    panel.setSnapshot(pieces);
    QVERIFY(panel.offersWords());
    QCOMPARE(panel.headView()->weights().rows, 4);
    panel.tokensSelector()->setCurrentIndex(1);
    QVERIFY(panel.showsWords());
    QCOMPARE(panel.headView()->weights().rows, 3);
    QCOMPARE(panel.headView()->weights().col_labels, words.col_labels);
    QVERIFY(panel.tokensSelector()->toolTip().contains("sum"));
    // The next snapshot comes in words too; back to pieces on request.
    panel.setSnapshot(pieces);
    QCOMPARE(panel.headView()->weights().rows, 3);
    panel.setShowsWords(false);
    QCOMPARE(panel.headView()->weights().rows, 4);
    QCOMPARE(panel.tokensSelector()->currentIndex(), 0);
  }

  // The grid beside an enlarged head is 140 px wide at 1280 × 720: its title read "cross · l…".
  void aNarrowGridBreaksItsTitleInsteadOfCuttingIt() {
    AttentionHeadGrid grid;
    grid.setTitle(QStringLiteral("cross · layer 0"));
    QVERIFY(test::showAndSettle(&grid, QSize(140, 400)));
    grid.replot();
    test::settle();
    QCOMPARE(grid.title(), QStringLiteral("cross · layer 0"));
    QCOMPARE(grid.shownTitle(), QStringLiteral("cross\nlayer 0"));
    grid.resize(600, 400);
    test::settle();
    grid.replot();
    test::settle();
    QCOMPARE(grid.shownTitle(), QStringLiteral("cross · layer 0"));
    // A part too wide alone is still elided, never cut at the widget's edges.
    grid.setTitle(QStringLiteral("a very long attention group name · layer 11"));
    grid.resize(140, 400);
    test::settle();
    grid.replot();
    test::settle();
    const QStringList lines = grid.shownTitle().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines.front().endsWith(QChar(0x2026)));
    QCOMPARE(lines.back(), QStringLiteral("layer 11"));
  }

  void keysChangeHeadAndLayer() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot(3, 4));
    panel.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.headGrid()->setFocus();
    QSignalSpy spy(&panel, &AttentionHeadGridPanel::headSelected);
    QTest::keyClick(panel.headGrid(), Qt::Key_Right);
    QCOMPARE(panel.currentHead(), 1);
    QCOMPARE(panel.headSelector()->currentIndex(), 1);
    QCOMPARE(panel.headGrid()->selectedHead(), 1);
    QVERIFY(panel.headView()->title().contains(QStringLiteral("head 1")));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(2).toInt(), 1);
    QTest::keyClick(panel.headGrid(), Qt::Key_Left);
    QTest::keyClick(panel.headGrid(), Qt::Key_Left);  // stays at the first head
    QCOMPARE(panel.currentHead(), 0);
    QCOMPARE(spy.count(), 2);

    panel.headView()->setFocus();  // the enlarged head (inside its scroll area) too
    QTest::keyClick(panel.headView(), Qt::Key_PageDown);
    QCOMPARE(panel.currentLayer(), 1);
    QCOMPARE(panel.layerSelector()->currentIndex(), 1);
    QCOMPARE(spy.count(), 3);
    QCOMPARE(spy.last().at(1).toInt(), 1);
    QTest::keyClick(panel.headView(), Qt::Key_Down);
    QCOMPARE(panel.currentLayer(), 2);
    QTest::keyClick(panel.headView(), Qt::Key_Up);
    QCOMPARE(panel.currentLayer(), 1);
    QTest::keyClick(panel.headView(), Qt::Key_PageUp);
    QCOMPARE(panel.currentLayer(), 0);
    QCOMPARE(spy.count(), 6);
  }

  // --- predict, then reveal ---
  void guessIsScoredByTheWeightItHeldAndTheTopKey() {
    LabeledMatrix w(2, 3);
    w.col_labels = {"trophy", "suitcase", "it"};
    w.row_labels = {"it", "was"};
    w.values = {0.6f, 0.3f, 0.1f, 0.2f, NAN, 0.8f};
    AttentionGuess guess;
    guess.toggle(0, 1);  // suitcase: 0.3, not the top key
    GuessScore s = scoreGuess(w, guess);
    QCOMPARE(s.rows, 1);
    QVERIFY(std::abs(s.held - 0.3) < 1e-6);
    QCOMPARE(s.top_hits, 0);
    QCOMPARE(describeScore(s),
             QStringLiteral("Your guess held 30% of the weight · the top key was “trophy” (0.60)"));
    guess.toggle(0, 0);  // and trophy: both held, the top key among the guessed
    s = scoreGuess(w, guess);
    QVERIFY(std::abs(s.held - 0.9) < 1e-6);
    QCOMPARE(s.top_hits, 1);
    QCOMPARE(describeScore(s),
             QStringLiteral("Your guess held 90% of the weight · top key “trophy” guessed ✓"));
    guess.addVotes(0, 1, 4);  // a tally: most votes on suitcase, so the top key is not the pick
    QCOMPARE(scoreGuess(w, guess).top_hits, 0);
    // A masked cell (NaN) holds nothing; a second row averages in.
    guess.clear();
    guess.toggle(1, 1);
    guess.toggle(0, 0);
    s = scoreGuess(w, guess);
    QCOMPARE(s.rows, 2);
    QVERIFY(std::abs(s.held - 0.3) < 1e-6);  // (0.6 + 0) / 2
    QCOMPARE(s.top_hits, 1);
    QVERIFY(describeScore(s).endsWith(QStringLiteral("top key guessed in 1 of 2 rows")));
    guess.toggle(0, 0);
    guess.toggle(1, 1);
    QVERIFY(guess.isEmpty());
    QCOMPARE(describeScore(scoreGuess(w, guess)), QStringLiteral("No guess was made."));

    // A tally typed in from a show of hands replaces the row's votes.
    QCOMPARE(applyTally(QStringLiteral("trophy 12, suitcase 5"), w.col_labels, 0, &guess),
             QString());
    QCOMPARE(guess.votes(0, 0), 12);
    QCOMPARE(guess.votes(0, 1), 5);
    QCOMPARE(scoreGuess(w, guess).top_hits, 1);
    QCOMPARE(applyTally(QStringLiteral("suitcase 2"), w.col_labels, 0, &guess), QString());
    QCOMPARE(guess.votes(0, 0), 0);
    QCOMPARE(applyTally(QStringLiteral("box 3"), w.col_labels, 0, &guess),
             QStringLiteral("“box” is not a key of this head"));
    QVERIFY(applyTally(QStringLiteral("trophy"), w.col_labels, 0, &guess).contains("trophy 12"));
    QCOMPARE(guess.votes(0, 1), 2);  // a tally that did not read changes nothing
  }

  void predictThenRevealByKeyboardAlone() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot(3, 4));
    panel.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.headView()->setFocus();
    PredictionRound* round = panel.predictionRound();
    QTest::keyClick(panel.headView(), Qt::Key_H);
    QVERIFY(round->isActive());
    QVERIFY(panel.predictionBar()->isVisible());
    QVERIFY(!panel.headGrid()->isVisible());  // the thumbnails would give the answer away
    const QPoint cell = cellCenter(panel.headView()->colorMap(), 1, 1);
    QCOMPARE(panel.headView()->hoverText(cell), QStringLiteral("cat → cat: hidden"));
    // The arrows move the guess's cursor now, not the head; Space guesses its cell.
    QTest::keyClick(panel.headView(), Qt::Key_Down);
    QTest::keyClick(panel.headView(), Qt::Key_Right);
    QCOMPARE(panel.currentHead(), 0);
    QCOMPARE(panel.currentLayer(), 0);
    QTest::keyClick(panel.headView(), Qt::Key_Q);  // just the row of "cat"
    QCOMPARE(round->query(), 1);
    QTest::keyClick(panel.headView(), Qt::Key_Space);
    QCOMPARE(round->guess().votes(1, 1), 1);
    QTest::keyClick(panel.headView(), Qt::Key_Left);
    QTest::keyClick(panel.headView(), Qt::Key_Plus);
    QTest::keyClick(panel.headView(), Qt::Key_Plus);
    QCOMPARE(round->guess().votes(1, 0), 2);
    QTest::keyClick(panel.headView(), Qt::Key_Minus);
    QTest::keyClick(panel.headView(), Qt::Key_Up);      // one row asked: the cursor stays on it
    QTest::keyClick(panel.headView(), Qt::Key_Return);  // Enter toggles as Space does
    QCOMPARE(round->guess().votes(1, 0), 0);
    QCOMPARE(round->guess().rows(), QList<int>{1});
    QSignalSpy revealed(round, &PredictionRound::revealedScore);
    QTest::keyClick(panel.headView(), Qt::Key_R);
    QCOMPARE(revealed.count(), 1);
    QVERIFY(round->isRevealed());
    // Row "cat" of head 0, layer 0 puts 0.6 on "cat" itself.
    QCOMPARE(panel.predictionBar()->messageLabel()->text(),
             QStringLiteral("Your guess held 60% of the weight · top key “cat” guessed ✓"));
    QVERIFY(panel.headGrid()->isVisible());
    QCOMPARE(panel.headView()->hoverText(cell),
             QStringLiteral("cat → cat: ") + AttentionHeadDisplay::formatWeight(0.6f));
    QTest::keyClick(panel.headView(), Qt::Key_H);
    QVERIFY(!round->isActive());
    QTest::keyClick(panel.headView(), Qt::Key_Right);  // the arrows change the head again
    QCOMPARE(panel.currentHead(), 1);
  }

  void clicksGuessAndAnotherHeadEndsTheRound() {
    AttentionHeadGridPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(1200, 700)));
    panel.setSnapshot(snapshot(3, 4));
    panel.setCurrentGroup(1);  // decoder self: causal, the upper triangle masked
    test::settle();
    QVERIFY(!panel.predictionBar()->isVisible());
    PredictionRound* round = panel.predictionRound();
    round->start(-1);
    QVERIFY(panel.predictionBar()->isVisible());
    QVERIFY(round->isActive());
    QCOMPARE(round->query(), -1);
    AttentionHeatmapView* view = panel.headView();
    QTest::mouseClick(view, Qt::LeftButton, {}, cellCenter(view->colorMap(), 2, 0));
    QCOMPARE(round->guess().votes(2, 0), 1);
    QTest::mouseClick(view, Qt::LeftButton, {}, cellCenter(view->colorMap(), 0, 3));  // masked
    QCOMPARE(round->guess().votes(0, 3), 0);
    QVERIFY(panel.predictionBar()->messageLabel()->text().contains(QStringLiteral("masked")));
    // New weights of the same shape (the next probe of a live run) keep the round.
    panel.setSnapshot(snapshot(3, 4));
    QVERIFY(round->isActive());
    QCOMPARE(round->guess().votes(2, 0), 1);
    // A tally is for one row: the bar says so, then takes it once a row is chosen.
    QLineEdit* tally = panel.predictionBar()->tallyEdit();
    QCOMPARE(round->enterTally(QStringLiteral("the 3")),
             QStringLiteral("A tally is for one query's row: choose the row first."));
    panel.predictionBar()->scopeSelector()->setCurrentIndex(3);  // row of "sat"
    QCOMPARE(round->query(), 2);
    QVERIFY(tally->isEnabled());
    tally->setText(QStringLiteral("the 3, sat 7"));
    tally->setFocus();  // typed into: Enter is the field's, not the head's
    QTest::keyClick(tally, Qt::Key_Return);
    QCOMPARE(round->guess().votes(2, 0), 3);
    QCOMPARE(round->guess().votes(2, 2), 7);
    panel.predictionBar()->revealButton()->click();
    // decoder self, layer 0, row "sat" (causal): 0.6 on itself, 0.2 on each earlier key.
    QCOMPARE(panel.predictionBar()->messageLabel()->text(),
             QStringLiteral("Your guess held 80% of the weight · top key “sat” guessed ✓"));
    panel.setCurrentHead(1);
    QVERIFY(!round->isActive());
    QVERIFY(panel.headGrid()->isVisible());
    QVERIFY(!panel.predictionBar()->isVisible());
    round->start(-1);
    panel.predictionBar()->hideButton()->click();  // "End" while a round runs
    QVERIFY(!round->isActive());
    round->start(-1);
    panel.clear();
    QVERIFY(!round->isActive());
  }
};

QTEST_MAIN(AttentionHeadGridPanelTest)
#include "attention_head_grid_panel_test.moc"
