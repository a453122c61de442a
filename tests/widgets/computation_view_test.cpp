// The Computation view on made-up numbers: each stage's shape as the seeds write it and with its
// numbers, masked cells never drawn or hovered as numbers, the product bars summing to the logit
// they are said to sum to, the token/position parts shown only where the split exists, and a
// click on a weight choosing that cell.
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include <cmath>
#include <numeric>

#include "widget_test_util.h"
#include "widgets/common/fitting_label.h"
#include "widgets/computation/cell_breakdown_view.h"
#include "widgets/computation/computation_bar_plot.h"
#include "widgets/computation/computation_view.h"
#include "widgets/computation/stage_cell_text.h"
#include "widgets/computation/stage_figure.h"
#include "widgets/computation/stage_heatmap_view.h"

namespace ascope {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

LabeledMatrix filled(int rows, int cols, const QStringList& row_labels,
                     const QStringList& col_labels = {}) {
  LabeledMatrix m(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m.at(r, c) = 0.1f * static_cast<float>(r - c);
  m.row_labels = row_labels;
  m.col_labels = col_labels;
  return m;
}

/// A cross-attention head: 3 queries ("it" among them), 4 keys ("cat" among them), d_head 2,
/// d_model 4, 2 heads; the key "box" is masked for the query "it".
std::shared_ptr<const ComputationPlotData> crossHead() {
  auto data = std::make_shared<ComputationPlotData>();
  data->heading = QStringLiteral("cross · layer 0 · head 1 · validation sample 2");
  data->weights_note = QStringLiteral("weights of step 40 (last.pt)");
  data->heads = 2;
  data->head = 1;
  data->d_head = 2;
  data->d_model = 4;
  data->scale = 1 / std::sqrt(2.0);
  const QStringList queries{QStringLiteral("<s>"), QStringLiteral("it"), QStringLiteral("sat")};
  const QStringList keys{QStringLiteral("the"), QStringLiteral("cat"), QStringLiteral("sat"),
                         QStringLiteral("box")};
  data->query_labels = queries;
  data->key_labels = keys;
  std::vector<std::uint8_t> mask(12, 0);
  mask[1 * 4 + 3] = 1;
  const auto stage = [&](StageKind kind, const QString& title, const QString& words,
                         std::vector<StageMatrix> matrices, bool masked = false) {
    data->stages.push_back({kind, title, title, words, title + QStringLiteral(" = …"),
                            std::move(matrices), masked ? mask : std::vector<std::uint8_t>{}});
  };
  const QString by_model = QStringLiteral("[tokens × d_model]");
  const QString by_head = QStringLiteral("[tokens × d_head]");
  const QString by_tokens = QStringLiteral("[tokens × tokens]");
  stage(StageKind::Input, QStringLiteral("X"), by_model,
        {{QStringLiteral("X_q"), filled(3, 4, queries), {}, {}, {}},
         {QStringLiteral("X_kv"), filled(4, 4, keys), {}, {}, {}}});
  stage(StageKind::Projections, QStringLiteral("Q, K, V"), by_head,
        {{QStringLiteral("Q"), filled(3, 2, queries), {}, {}, QStringLiteral("q")},
         {QStringLiteral("K"), filled(4, 2, keys), {}, {}, QStringLiteral("k")},
         {QStringLiteral("V"), filled(4, 2, keys), {}, {}, QStringLiteral("v")}});
  for (const auto& [kind, name] : {std::pair{StageKind::Logits, QStringLiteral("QKᵀ")},
                                   std::pair{StageKind::Scaled, QStringLiteral("S")},
                                   std::pair{StageKind::Masked, QStringLiteral("S")},
                                   std::pair{StageKind::Weights, QStringLiteral("A")}}) {
    LabeledMatrix m = filled(3, 4, queries, keys);
    m.at(1, 3) = kNaN;
    stage(kind, name, by_tokens, {{name, m, {}, {}, {}}}, true);
  }
  stage(StageKind::HeadOutput, QStringLiteral("A·V"), by_head,
        {{QStringLiteral("AV"), filled(3, 2, queries), {}, {}, {}}});
  stage(StageKind::Joined, QStringLiteral("join"), by_model,
        {{QStringLiteral("Concat"), filled(3, 4, queries), {}, {}, {}}});
  stage(StageKind::Output, QStringLiteral("W_O"), by_model,
        {{QStringLiteral("Out"), filled(3, 4, queries), {}, {}, {}}});
  return data;
}

CellBreakdownData itLooksAtCat(bool has_parts) {
  CellBreakdownData cell;
  cell.query = 1;
  cell.key = 1;
  cell.query_label = QStringLiteral("it");
  cell.key_label = QStringLiteral("cat");
  cell.products = {1.5, -0.5};
  cell.sum = 1.0;
  cell.logit = 1.0;
  cell.scale = 0.7071;
  cell.scaled = 0.7071;
  cell.weight = 0.45;
  cell.rank_before = 1;
  cell.rank_after = 1;
  cell.unmasked_keys = 3;
  cell.key_labels = {QStringLiteral("the"), QStringLiteral("cat"), QStringLiteral("sat"),
                     QStringLiteral("box")};
  cell.row_weights = {0.25, 0.45, 0.30, std::nan("")};
  cell.has_parts = has_parts;
  cell.parts = {0.8, 0.1, 0.05, 0.05};
  cell.part_names = {QStringLiteral("token·token"), QStringLiteral("token·position"),
                     QStringLiteral("position·token"), QStringLiteral("position·position")};
  if (!has_parts) cell.no_parts_reason = QStringLiteral("The split exists only at the first layer");
  return cell;
}

}  // namespace

class ComputationViewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void stagesShowTheirShapesAsTheSeedsWriteThem() {
    ComputationView view;
    view.setComputation(crossHead());
    QVERIFY(test::showAndSettle(&view, QSize(1200, 600)));
    QCOMPARE(view.stageCount(), 9);
    QVERIFY(view.stageButtons()[0]->text().contains(QStringLiteral("[3 × 4]")));
    QVERIFY(view.stageButtons()[1]->text().contains(QStringLiteral("[3 × 2]")));
    QVERIFY(view.stageButtons()[2]->text().contains(QStringLiteral("[3 × 4]")));
    view.setCurrentStage(1);
    StageFigure* qkv = view.stageFigure(1);
    QCOMPARE(qkv->titleLabel()->versions().first(),
             QStringLiteral("Q, K, V · [tokens × d_head] = [3 × 2]"));
    QCOMPARE(static_cast<int>(qkv->views().size()), 3);
    QCOMPARE(qkv->views()[1]->title(), QStringLiteral("K [4 × 2]"));
    QCOMPARE(view.stageFigure(0)->views()[1]->title(), QStringLiteral("X_kv [4 × 4]"));
    // Too narrow for names and shapes: the names alone, the shape still in the tooltip.
    view.resize(380, 600);
    test::settle();
    QCOMPARE(view.stageButtons()[2]->text(), QStringLiteral("QKᵀ"));
    QVERIFY(view.stageButtons()[2]->toolTip().contains(QStringLiteral("[3 × 4]")));
  }

  void maskedCellsAreNotDrawnAsNumbers() {
    ComputationView view;
    const auto data = crossHead();
    view.setComputation(data);
    for (int stage = 2; stage <= 5; ++stage) {
      view.setCurrentStage(stage);
      StageHeatmapView* map = view.stageFigure(stage)->views().front();
      QVERIFY(std::isnan(map->matrix().at(1, 3)));
      QVERIFY(map->hasMaskedCells());
      const QString text =
          stageCellText(*data, data->stages[static_cast<std::size_t>(stage)], 0, 1, 3);
      QVERIFY2(text.contains(QStringLiteral("masked")), qPrintable(text));
      QVERIFY2(!text.contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(text));
      QVERIFY2(!text.contains(QStringLiteral(" = ")), qPrintable(text));
    }
    // An unmasked cell says how it was made.
    QCOMPARE(stageCellText(*data, data->stages[2], 0, 1, 1),
             QStringLiteral("QKᵀ[it, cat] = q_it · k_cat = 0"));
    // Query rows outside the mask have no hatching to explain.
    QVERIFY(!view.stageFigure(1)->views().front()->hasMaskedCells());
  }

  void productBarsSumToTheLogit() {
    CellBreakdownView view;
    view.setBreakdown(itLooksAtCat(false));
    const std::vector<double>& bars = view.productsPlot()->values();
    QCOMPARE(static_cast<int>(bars.size()), 2);
    QCOMPARE(std::accumulate(bars.begin(), bars.end(), 0.0), 1.0);
    QVERIFY2(view.sumLabel()->versions().first().contains(QStringLiteral("= 1 = QKᵀ[it, cat] 1")),
             qPrintable(view.sumLabel()->versions().first()));
    QVERIFY(view.rankLabel()->versions().first().contains(QStringLiteral("rank 1 of 3")));
    // The row after the softmax, its masked key left out, the chosen key in the accent.
    QCOMPARE(view.rowPlot()->values().size(), std::size_t{4});
    QVERIFY(std::isnan(view.rowPlot()->values()[3]));
  }

  void partsAreShownOnlyWhereTheSplitExists() {
    CellBreakdownView view;
    view.show();
    view.setBreakdown(itLooksAtCat(false));
    QVERIFY(!view.partsPlot()->isVisibleTo(&view));
    QVERIFY(view.partsLabel()->versions().first().contains(QStringLiteral("first layer")));
    view.setBreakdown(itLooksAtCat(true));
    QVERIFY(view.partsPlot()->isVisibleTo(&view));
    QCOMPARE(view.partsPlot()->values().size(), std::size_t{4});
    QVERIFY(view.partsLabel()->versions().first().contains(QStringLiteral("by content")));
    std::array<double, 4> place{0.1, 0.2, -0.3, 2.0};
    QVERIFY(CellBreakdownView::partsVerdict(place, itLooksAtCat(true).part_names)
                .first()
                .contains(QStringLiteral("by place")));
  }

  void aClickedWeightIsChosen() {
    ComputationView view;
    view.setComputation(crossHead());
    view.setCurrentStage(5);  // the softmax
    QVERIFY(test::showAndSettle(&view, QSize(1000, 600)));
    QSignalSpy chosen(&view, &ComputationView::cellChosen);
    StageHeatmapView* map = view.stageFigure(5)->views().front();
    const QPoint at(qRound(map->xAxis->coordToPixel(1)), qRound(map->yAxis->coordToPixel(2)));
    QTest::mouseClick(map, Qt::LeftButton, {}, at);
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.first().at(0).toInt(), 2);
    QCOMPARE(chosen.first().at(1).toInt(), 1);
    // A click in Q's rows chooses nothing: its columns are no keys.
    view.setCurrentStage(1);
    test::settle();
    StageHeatmapView* q = view.stageFigure(1)->views().front();
    QTest::mouseClick(q, Qt::LeftButton, {},
                      QPoint(qRound(q->xAxis->coordToPixel(0)), qRound(q->yAxis->coordToPixel(0))));
    QCOMPARE(chosen.size(), 1);
  }
};

}  // namespace ascope

QTEST_MAIN(ascope::ComputationViewTest)
#include "computation_view_test.moc"
