// The lecture export bundle: every kind of attention and every layer as a figure, the
// enlarged head and the CLS overlay, every positional-encoding view; titles and JSON sidecars
// that say run, step, layer and head; the attention CSV with its step column; and none of it
// disturbs what the panels show.

#include "fake_data.h"
#include "widget_test_util.h"
#include "widgets/attention/attention_figure_bundle.h"
#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/common/figure_context.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/encoding/positional_encoding_figure_bundle.h"
#include "widgets/encoding/positional_encoding_panel.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ascope;

namespace {

FigureContext context(long long step) {
  FigureContext c;
  c.run = QStringLiteral("2026-11-24_translate");
  c.task = QStringLiteral("Translation");
  c.step = step;
  c.probe_sample = QStringLiteral("#0 the black cat");
  return c;
}

/// Every file under `dir`, as paths relative to it.
QStringList filesUnder(const QString& dir) {
  QStringList files;
  QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) files << QDir(dir).relativeFilePath(it.next());
  files.sort();
  return files;
}

QJsonObject readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The grid's shape on screen: place, columns, outer margins and every head's rectangle.
QList<QRect> gridGeometry(const AttentionHeadGrid* grid) {
  const QMargins m = grid->plotLayout()->margins();
  QList<QRect> shape{grid->geometry(), QRect(grid->columnCount(), 0, 0, 0),
                     QRect(m.left(), m.top(), m.right(), m.bottom())};
  for (int h = 0; h < grid->headCount(); ++h) shape << grid->headRect(h)->rect();
  return shape;
}

const ExportSize kSmall{640, 360, 1.0};

}  // namespace

class FigureBundleTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void attentionBundleHasEveryKindLayerAndTheEnlargedHead() {
    AttentionHeadGridPanel panel;
    panel.setSnapshot(fake::translationAttention(2, 2));
    panel.setCurrentGroup(2);  // cross
    panel.setCurrentLayer(1);
    panel.setCurrentHead(1);
    QTemporaryDir dir;
    AttentionFigureBundle bundle(panel, context(1200));
    const ExportResult r = bundle.write(dir.path(), {ImageFormat::Png, ImageFormat::Svg}, kSmall);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QStringList files = filesUnder(dir.path());
    for (const char* kind : {"encoder_self", "decoder_self", "cross"}) {
      for (int layer = 0; layer < 2; ++layer) {
        const QString stem =
            QStringLiteral("%1/attention_%1_layer%2_step1200").arg(kind).arg(layer);
        for (const char* suffix : {".png", ".svg", ".json"})
          QVERIFY2(files.contains(stem + QLatin1String(suffix)), qPrintable(files.join(' ')));
      }
    }
    // The enlarged head is the one chosen on screen; there is no overlay without an image.
    QVERIFY2(files.contains(QStringLiteral("cross/attention_cross_layer1_head1_step1200.png")),
             qPrintable(files.join(' ')));
    QCOMPARE(bundle.figures().size(), 3 * 2 + 1);
    QCOMPARE(files.size(), (3 * 2 + 1) * 3);
    QVERIFY(files.filter(QStringLiteral("cls_overlay")).isEmpty());
    // Slide size: the PNG is the size asked for.
    QCOMPARE(
        QImage(dir.filePath(QStringLiteral("cross/attention_cross_layer0_step1200.png"))).size(),
        QSize(640, 360));
  }

  void visionBundleHasTheClsOverlay() {
    AttentionHeadGridPanel panel;
    panel.setSnapshot(fake::visionAttention(2, 2));
    panel.setCurrentLayer(1);
    panel.setCurrentHead(0);
    QTemporaryDir dir;
    AttentionFigureBundle bundle(panel, context(2400));
    const ExportResult r = bundle.write(dir.path(), {ImageFormat::Png}, ExportSize{640, 360, 2.0});
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QString overlay = dir.filePath(
        QStringLiteral("encoder_self/cls_overlay_encoder_self_layer1_head0_step2400.png"));
    const QImage image(overlay);
    QCOMPARE(image.size(), QSize(1280, 720));  // 2x device pixel ratio
    // The picture is there, not an empty canvas: many distinct colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
      for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    const QJsonObject sidecar =
        readJson(QString(overlay).replace(QStringLiteral(".png"), QStringLiteral(".json")));
    QCOMPARE(sidecar["figure"].toString(), QStringLiteral("cls overlay"));
    QCOMPARE(sidecar["layer"].toInt(), 1);
    QCOMPARE(sidecar["head"].toInt(), 0);
    QCOMPARE(sidecar["patch_grid"].toArray(), (QJsonArray{8, 8}));
    QVERIFY(QFileInfo::exists(dir.filePath(
        QStringLiteral("encoder_self/attention_encoder_self_layer1_head0_step2400.png"))));
  }

  void sidecarsSayWhatTheFigureShows() {
    AttentionHeadGridPanel panel;
    panel.setSnapshot(fake::translationAttention(2, 2));
    panel.setColorScale(AttentionColorScale::Fixed);
    panel.setCurrentGroup(1);  // decoder self
    panel.setCurrentLayer(0);
    panel.setCurrentHead(1);
    QTemporaryDir dir;
    QVERIFY(AttentionFigureBundle(panel, context(1200))
                .write(dir.path(), {ImageFormat::Png}, kSmall)
                .ok());
    const QJsonObject grid =
        readJson(dir.filePath(QStringLiteral("cross/attention_cross_layer1_step1200.json")));
    QCOMPARE(grid["run"].toString(), QStringLiteral("2026-11-24_translate"));
    QCOMPARE(grid["task"].toString(), QStringLiteral("Translation"));
    QCOMPARE(grid["step"].toInt(), 1200);
    QCOMPARE(grid["probe_sample"].toString(), QStringLiteral("#0 the black cat"));
    QCOMPARE(grid["group"].toString(), QStringLiteral("cross"));
    QCOMPARE(grid["layer"].toInt(), 1);
    QVERIFY(grid["head"].isNull());  // a grid shows every head
    QCOMPARE(grid["heads"].toArray().size(), 2);
    QCOMPARE(grid["color"]["mode"].toString(), QStringLiteral("fixed"));
    QCOMPARE(grid["color"]["range"].toArray(), (QJsonArray{0.0, 1.0}));
    QCOMPARE(grid["tokens"]["queries"].toArray().size(), 10);  // target tokens
    QCOMPARE(grid["tokens"]["keys"].toArray().first().toString(), QStringLiteral("the"));
    QCOMPARE(grid["files"].toArray(),
             (QJsonArray{QStringLiteral("attention_cross_layer1_step1200.png")}));

    const QJsonObject head = readJson(dir.filePath(
        QStringLiteral("decoder_self/attention_decoder_self_layer0_head1_step1200.json")));
    QCOMPARE(head["figure"].toString(), QStringLiteral("enlarged head"));
    QCOMPARE(head["group"].toString(), QStringLiteral("decoder self"));
    QCOMPARE(head["layer"].toInt(), 0);
    QCOMPARE(head["head"].toInt(), 1);
    QVERIFY(head["causal"].toBool());
    QCOMPARE(head["tokens"]["queries"].toArray().first().toString(), QStringLiteral("<bos>"));

    // Another colour scale reaches the sidecar as it is: per head gives each head its range.
    panel.setColorScale(AttentionColorScale::PerHead);
    QTemporaryDir per_head;
    QVERIFY(AttentionFigureBundle(panel, context(1200))
                .write(per_head.path(), {ImageFormat::Png}, kSmall)
                .ok());
    const QJsonObject grid2 = readJson(per_head.filePath(
        QStringLiteral("encoder_self/attention_encoder_self_layer0_step1200.json")));
    QCOMPARE(grid2["color"]["mode"].toString(), QStringLiteral("per head"));
    QCOMPARE(grid2["head_color_ranges"].toArray().size(), 2);
  }

  void titlesCarryRunStepLayerAndHead() {
    AttentionHeadGridPanel panel;
    panel.setSnapshot(fake::translationAttention(2, 2));
    panel.setCurrentLayer(1);
    panel.setCurrentHead(1);
    QTemporaryDir dir;
    QVERIFY(AttentionFigureBundle(panel, context(1200))
                .write(dir.path(), {ImageFormat::Svg}, kSmall)
                .ok());
    // SVG keeps its text as text: the titles can be read back.
    const QString grid = QString::fromUtf8(readAll(
        dir.filePath(QStringLiteral("encoder_self/attention_encoder_self_layer1_step1200.svg"))));
    for (const char* part :
         {"2026-11-24_translate", "step 1200", "encoder self", "layer 1", "head 0", "head 1"})
      QVERIFY2(grid.contains(QLatin1String(part)), part);
    const QString head = QString::fromUtf8(readAll(dir.filePath(
        QStringLiteral("encoder_self/attention_encoder_self_layer1_head1_step1200.svg"))));
    for (const char* part : {"2026-11-24_translate", "step 1200", "layer 1", "head 1"})
      QVERIFY2(head.contains(QLatin1String(part)), part);
    QVERIFY(!QString::fromUtf8(readAll(dir.filePath(QStringLiteral(
                                   "encoder_self/attention_encoder_self_layer0_step1200.svg"))))
                 .contains(QLatin1String("layer 1")));
  }

  void attentionCsvHasAStepColumnAndEveryWeight() {
    AttentionHeadGridPanel panel;
    panel.setSnapshot(fake::translationAttention(2, 2));
    QTemporaryDir dir;
    const FigureContext c = context(1200);
    QCOMPARE(AttentionFigureBundle::csvName(c),
             QStringLiteral("attention_2026_11_24_translate_step1200.csv"));
    const QString path = dir.filePath(AttentionFigureBundle::csvName(c));
    QVERIFY(panel.exportCsv(path).ok());
    const QStringList lines =
        QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(),
             QStringLiteral("step,group,layer,head,query_index,query,key_index,key,weight"));
    // 2 layers x 2 heads of encoder self (8 x 8), decoder self (10 x 10) and cross (10 x 8).
    QCOMPARE(lines.size() - 1, 4 * 64 + 4 * 100 + 4 * 80);
    QVERIFY(lines[1].startsWith(QStringLiteral("1200,encoder self,0,0,0,the,0,the,")));
    QVERIFY(lines.last().startsWith(QStringLiteral("1200,cross,1,1,9,.,7,.,")));
  }

  void encodingBundleHasEveryView() {
    for (const bool vision : {false, true}) {
      PositionalEncodingPanel panel;
      panel.setEncoding(vision ? fake::learnedPatchEncoding(4, 4, 16)
                               : fake::sinusoidalEncoding(24, 16));
      panel.setCurrentTab(PositionalEncodingPanel::DimensionsTab);
      QTemporaryDir dir;
      PositionalEncodingFigureBundle bundle(panel, context(1200));
      const ExportResult r = bundle.write(dir.path(), {ImageFormat::Png, ImageFormat::Pdf}, kSmall);
      QVERIFY2(r.ok(), qPrintable(r.error));
      QStringList expected{
          "positional_encoding_step1200", "positional_encoding_dimensions_step1200",
          "positional_similarity_dot_step1200", "positional_similarity_cosine_step1200"};
      if (vision) expected << QStringLiteral("patch_similarity_step1200");
      QCOMPARE(bundle.figures(), expected);
      for (const QString& stem : expected)
        for (const char* suffix : {".png", ".pdf", ".csv", ".json"})
          QVERIFY2(QFileInfo(dir.filePath(stem + QLatin1String(suffix))).size() > 0,
                   qPrintable(stem + QLatin1String(suffix)));
      const QJsonObject sidecar =
          readJson(dir.filePath(QStringLiteral("positional_similarity_cosine_step1200.json")));
      QCOMPARE(sidecar["view"].toString(), QStringLiteral("similarity (cosine)"));
      QCOMPARE(sidecar["step"].toInt(), 1200);
      QCOMPARE(sidecar["run"].toString(), QStringLiteral("2026-11-24_translate"));
      // The panel keeps the tab it showed.
      QCOMPARE(panel.currentTab(), PositionalEncodingPanel::DimensionsTab);
    }
  }

  void exportingLeavesThePanelAsShown() {
    // Every layer and kind is drawn, yet the panel keeps showing its group, layer and head, with
    // the grid laid out as before (the Ctrl+E case itself is in main_window_test).
    AttentionHeadGridPanel panel;
    panel.setSnapshot(fake::translationAttention(2, 2));
    panel.setCurrentGroup(2);
    panel.setCurrentLayer(1);
    panel.setCurrentHead(1);
    QVERIFY(test::showAndSettle(&panel, QSize(640, 420)));
    AttentionHeadGrid* grid = panel.headGrid();
    grid->replot();
    const QList<QRect> before = gridGeometry(grid);
    const QString title = grid->title();
    QVERIFY(before[1].x() >= 1);
    QTemporaryDir dir;
    // The panel's own figure (right-click) and the whole bundle, at the slide size.
    const QString png = dir.filePath(QStringLiteral("grid.png"));
    QVERIFY(panel.exportImage(png, ImageFormat::Png, ExportSize{}).ok());
    QCOMPARE(QImage(png).size(), QSize(2560, 1440));
    QVERIFY(AttentionFigureBundle(panel, context(1200))
                .write(dir.path(), {ImageFormat::Png, ImageFormat::Pdf}, ExportSize{})
                .ok());
    test::settle();
    grid->replot();
    QCOMPARE(panel.currentGroup(), 2);
    QCOMPARE(panel.currentLayer(), 1);
    QCOMPARE(panel.currentHead(), 1);
    QCOMPARE(grid->selectedHead(), 1);
    QCOMPARE(grid->title(), title);
    QCOMPARE(gridGeometry(grid), before);
  }
};

QTEST_MAIN(FigureBundleTest)
#include "figure_bundle_test.moc"
