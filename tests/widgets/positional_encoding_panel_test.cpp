// PositionalEncodingPanel and the similarity math behind it.

#include "widgets/encoding/positional_encoding_panel.h"
#include "fake_data.h"
#include "widget_test_util.h"
#include "widgets/common/heatmap_view.h"
#include "widgets/encoding/dimension_curves_plot.h"
#include "widgets/encoding/similarity_math.h"

#include <QFile>
#include <QLineEdit>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cmath>

using namespace ascope;

class PositionalEncodingPanelTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void gramMatrixOfKnownMatrix() {
    // rows (1,0), (1,1), (0,2)
    const std::vector<float> m = {1, 0, 1, 1, 0, 2};
    QCOMPARE(gramMatrix(m, 3, 2), std::vector<float>({1, 1, 0, 1, 2, 2, 0, 2, 4}));
  }

  void cosineSimilarityOfKnownMatrix() {
    const std::vector<float> m = {1, 0, 1, 1, 0, 2, 0, 0};  // last row is zero
    const std::vector<float> c = cosineSimilarityMatrix(m, 4, 2);
    const float r = 1.0f / std::sqrt(2.0f);
    const std::vector<float> expected = {1, r, 0, 0, r, 1, r, 0, 0, r, 1, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < expected.size(); ++i) QVERIFY(std::abs(c[i] - expected[i]) < 1e-6f);
  }

  void patchMosaicLaysBlocksOnTheGrid() {
    // CLS + 2x2 patches; similarity[i][j] = 10 * i + j so every cell is recognisable
    std::vector<float> sim(25);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) sim[i * 5 + j] = 10.0f * i + j;
    const LabeledMatrix mosaic = patchSimilarityMosaic(sim, 1, 2, 2);
    QCOMPARE(mosaic.rows, 5);
    QCOMPARE(mosaic.cols, 5);
    QCOMPARE(mosaic.at(0, 0), 11.0f);  // patch 0 vs patch 0
    QCOMPARE(mosaic.at(1, 1), 14.0f);  // patch 0 vs patch 3
    QCOMPARE(mosaic.at(0, 3), 21.0f);  // block of patch 1, vs patch 0
    QCOMPARE(mosaic.at(4, 4), 44.0f);  // patch 3 vs patch 3
    QVERIFY(std::isnan(mosaic.at(2, 0)) && std::isnan(mosaic.at(0, 2)));  // gaps
  }

  void parsesDimensionLists() {
    QCOMPARE(parseIndexList(QStringLiteral("0, 1, 4-6, 32, 99, x"), 64),
             QList<int>({0, 1, 4, 5, 6, 32}));
    QCOMPARE(parseIndexList(QStringLiteral("5 3;3  8 - 7"), 10), QList<int>({3, 5, 7, 8}));
  }

  void emptyPanelShowsHint() {
    PositionalEncodingPanel panel;
    QVERIFY(test::showAndSettle(&panel));
    QVERIFY(!panel.tabs()->isVisible());
    panel.setEncoding(fake::sinusoidalEncoding(10, 8));
    QVERIFY(panel.tabs()->isVisible());
  }

  void sinusoidalEncodingFillsEveryTab() {
    PositionalEncodingPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(900, 700)));
    const PositionalEncodingData pe = fake::sinusoidalEncoding(50, 64);
    panel.setEncoding(pe);
    test::settle();
    QCOMPARE(panel.encodingView()->matrix().rows, 50);
    QCOMPARE(panel.encodingView()->matrix().cols, 64);
    QCOMPARE(panel.dimensions(), QList<int>({0, 1, 4, 5, 32}));
    QCOMPARE(panel.dimensionPlot()->graphCount(), 5);
    QCOMPARE(panel.dimensionPlot()->graph(0)->dataCount(), 50);
    QCOMPARE(panel.similarity(), PositionalEncodingPanel::Similarity::DotProduct);
    QCOMPARE(panel.similarityView()->matrix().values, gramMatrix(pe.matrix.values, 50, 64));
    QVERIFY(!panel.isPatchTabAvailable());
    // PE heatmap renders, with a symmetric colour range for values in [-1, 1]
    panel.encodingView()->replot();
    const QImage image = panel.encodingView()->grab().toImage();
    QVERIFY(!test::isUniform(image,
                             panel.encodingView()->heatmapRect()->rect().adjusted(2, 2, -2, -2)));
    QVERIFY(std::abs(panel.encodingView()->dataRange().lower +
                     panel.encodingView()->dataRange().upper) < 1e-6);
    // sin(0) = 0 and cos(0) = 1 in row 0
    QCOMPARE(panel.encodingView()->matrix().at(0, 0), 0.0f);
    QCOMPARE(panel.encodingView()->matrix().at(0, 1), 1.0f);
  }

  void dimensionEditorChoosesCurves() {
    PositionalEncodingPanel panel;
    QVERIFY(test::showAndSettle(&panel));
    panel.setEncoding(fake::sinusoidalEncoding(20, 16));
    panel.setCurrentTab(PositionalEncodingPanel::DimensionsTab);
    panel.dimensionEditor()->setText(QStringLiteral("2, 3, 40"));
    Q_EMIT panel.dimensionEditor()->editingFinished();
    QCOMPARE(panel.dimensions(), QList<int>({2, 3}));
    QCOMPARE(panel.dimensionPlot()->graphCount(), 2);
    QCOMPARE(panel.dimensionPlot()->graph(1)->data()->at(5)->value,
             double(panel.encoding().matrix.at(5, 3)));
  }

  void learnedPatchEmbeddingsShowTheViTGrid() {
    PositionalEncodingPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(900, 700)));
    const PositionalEncodingData pe = fake::learnedPatchEncoding(8, 8, 32);
    panel.setEncoding(pe);
    QVERIFY(panel.isPatchTabAvailable());
    QCOMPARE(panel.similarity(), PositionalEncodingPanel::Similarity::Cosine);
    const LabeledMatrix& mosaic = panel.patchView()->matrix();
    QCOMPARE(mosaic.rows, 8 * 9 - 1);
    // every patch is most similar to itself (1 on the block's own position)
    QVERIFY(std::abs(mosaic.at(0, 0) - 1.0f) < 1e-5f);
    QVERIFY(std::abs(mosaic.at(9 * 3 + 3, 9 * 5 + 5) - 1.0f) < 1e-5f);  // patch (3,5)
    QCOMPARE(panel.patchView()->tickLabels(Qt::Horizontal).size(), 8);
    panel.setCurrentTab(PositionalEncodingPanel::PatchesTab);
    test::settle();
    panel.patchView()->replot();
    const QImage image = panel.patchView()->grab().toImage();
    QVERIFY(
        !test::isUniform(image, panel.patchView()->heatmapRect()->rect().adjusted(2, 2, -2, -2)));
  }

  void csvFollowsTheCurrentTab() {
    PositionalEncodingPanel panel;
    panel.setEncoding(fake::sinusoidalEncoding(6, 4));
    QTemporaryDir dir;
    auto read = [&](const QString& name) {
      QFile f(dir.filePath(name));
      return f.open(QIODevice::ReadOnly)
                 ? QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)
                 : QStringList();
    };
    QVERIFY(panel.exportCsv(dir.filePath(QStringLiteral("pe.csv"))).ok());
    QCOMPARE(read(QStringLiteral("pe.csv")).first(), QStringLiteral("position,0,1,2,3"));
    QCOMPARE(read(QStringLiteral("pe.csv")).size(), 7);
    panel.setCurrentTab(PositionalEncodingPanel::DimensionsTab);
    panel.setDimensions({1, 3});
    QVERIFY(panel.exportCsv(dir.filePath(QStringLiteral("dims.csv"))).ok());
    QCOMPARE(read(QStringLiteral("dims.csv")).first(), QStringLiteral("position,dim 1,dim 3"));
    QCOMPARE(read(QStringLiteral("dims.csv"))[1], QStringLiteral("0,1,1"));
    panel.setCurrentTab(PositionalEncodingPanel::SimilarityTab);
    QVERIFY(panel.exportCsv(dir.filePath(QStringLiteral("sim.csv"))).ok());
    QCOMPARE(read(QStringLiteral("sim.csv")).size(), 7);
    QCOMPARE(panel.exportBaseName(), QStringLiteral("positional_similarity"));
  }
};

QTEST_MAIN(PositionalEncodingPanelTest)
#include "positional_encoding_panel_test.moc"
