// PlotExporter: PNG/PDF/SVG figures with axes and colour scale, CSV quoting, atomic writes,
// export of several panels into a folder.

#include "widgets/common/plot_exporter.h"
#include "fake_data.h"
#include "widget_test_util.h"
#include "widgets/common/export_dialog.h"
#include "widgets/common/export_menu.h"
#include "widgets/common/heatmap_view.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/samples/sample_panel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QTemporaryDir>
#include <QTextStream>
#include <QXmlStreamReader>

using namespace ascope;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void fillHeatmap(HeatmapView& view) {
  LabeledMatrix m(4, 6);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 6; ++c) m.at(r, c) = float(r * 6 + c);
  m.col_labels = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"};
  view.setTitle(QStringLiteral("Known matrix"));
  view.setAxisTitles(QStringLiteral("key axis"), QStringLiteral("query axis"));
  view.setColorScaleLabel(QStringLiteral("weight scale"));
  view.setMatrix(m);
}

}  // namespace

class PlotExporterTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void pngHasTheRequestedSizeAndScale() {
    HeatmapView view;
    QVERIFY(test::showAndSettle(&view, QSize(500, 400)));
    fillHeatmap(view);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.png"));
    QVERIFY(PlotExporter::savePng(&view, path, {800, 500, 1.0}).ok());
    QImage image(path);
    QCOMPARE(image.size(), QSize(800, 500));
    // colour scale included: the top colour of viridis appears in the right-hand part
    QVERIFY(test::countPixelsNear(image, QRect(560, 0, 240, 500), QColor(0xfd, 0xe7, 0x25)) > 30);
    QVERIFY(PlotExporter::savePng(&view, path, {800, 500, 2.0}).ok());  // overwrites
    QCOMPARE(QImage(path).size(), QSize(1600, 1000));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"h.png"});  // no temp files
    // the widget itself is laid out for its own size again afterwards
    test::settle();
    QVERIFY(view.heatmapRect()->outerRect().right() < 500);
  }

  void aWidgetsSlideHasItsTitleAboveIt() {
    // head_statistics.png and ablation.png were small text on an empty slide, no title.
    QLabel widget(QStringLiteral("a wide and low widget"));
    widget.setAutoFillBackground(true);
    QVERIFY(test::showAndSettle(&widget, QSize(400, 100)));
    QTemporaryDir dir;
    const QString plain = dir.filePath(QStringLiteral("plain.png"));
    const QString titled = dir.filePath(QStringLiteral("titled.png"));
    QVERIFY(PlotExporter::saveWidget(&widget, plain, ImageFormat::Png, {800, 450, 1.0}).ok());
    QVERIFY(PlotExporter::saveWidget(&widget, titled, ImageFormat::Png, {800, 450, 1.0},
                                     QStringLiteral("Head statistics: entropy"))
                .ok());
    const QColor text = widget.palette().color(QPalette::WindowText);
    const QRect top(0, 0, 800, 40);  // above the letterboxed widget: background only
    QCOMPARE(test::countPixelsNear(QImage(plain), top, text, 60), 0);
    QVERIFY(test::countPixelsNear(QImage(titled), top, text, 60) > 50);
    QCOMPARE(QImage(titled).size(), QSize(800, 450));
  }

  void singleRowMatrixStillRenders() {
    HeatmapView view;
    QVERIFY(test::showAndSettle(&view, QSize(500, 300)));
    LabeledMatrix m(1, 4);
    m.values = {0.1f, 0.2f, 0.3f, 0.4f};
    view.setMatrix(m);
    test::settle();
    view.replot();
    const QImage image = view.grab().toImage();
    double x = 0, y = 0;
    view.colorMap()->coordsToPixels(3, 0, x, y);
    QVERIFY(test::colorDistance(image.pixel(qRound(x), qRound(y)), QColor(0xfd, 0xe7, 0x25)) < 30);
    QVERIFY(view.hoverText(QPoint(qRound(x), qRound(y))).contains(QStringLiteral("0.4")));
    // the single row fills its cell: just inside the top and bottom edge of the axis rect
    const QRect rect = view.heatmapRect()->rect();
    QVERIFY(test::colorDistance(image.pixel(qRound(x), rect.top() + 2), QColor(0xfd, 0xe7, 0x25)) <
            30);
    QVERIFY(test::colorDistance(image.pixel(qRound(x), rect.bottom() - 2),
                                QColor(0xfd, 0xe7, 0x25)) < 30);
  }

  void pdfIsAPdf() {
    HeatmapView view;
    QVERIFY(test::showAndSettle(&view, QSize(500, 400)));
    fillHeatmap(view);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.pdf"));
    const ExportResult r = PlotExporter::savePdf(&view, path, {1600, 1000, 1.0});
    QVERIFY2(r.ok(), qPrintable(r.error));
    const QByteArray pdf = readAll(path);
    QVERIFY(pdf.startsWith("%PDF"));
    QVERIFY(pdf.contains("/MediaBox"));
    QVERIFY(pdf.size() > 2000);
  }

  void svgIsXmlWithAxesLabelsAndScale() {
    HeatmapView view;
    QVERIFY(test::showAndSettle(&view, QSize(500, 400)));
    fillHeatmap(view);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.svg"));
    QVERIFY(PlotExporter::saveSvg(&view, path, {1600, 1000, 1.0}).ok());
    const QByteArray svg = readAll(path);
    QXmlStreamReader xml(svg);
    QString root;
    QStringList texts;
    while (!xml.atEnd()) {
      xml.readNext();
      if (xml.isStartElement() && root.isEmpty()) root = xml.name().toString();
      if (xml.isStartElement() && xml.name() == QLatin1String("text"))
        texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QStringLiteral("svg"));
    for (const char* expected : {"Known matrix", "key axis", "query axis", "weight scale", "gamma"})
      QVERIFY2(texts.contains(QString::fromLatin1(expected)), expected);
  }

  void csvQuotesAndIsAtomic() {
    QCOMPARE(PlotExporter::csvField(QStringLiteral("plain")), QStringLiteral("plain"));
    QCOMPARE(PlotExporter::csvField(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
    QCOMPARE(PlotExporter::csvField(QStringLiteral("say \"hi\"")),
             QStringLiteral("\"say \"\"hi\"\"\""));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("t.csv"));
    QVERIFY(PlotExporter::writeCsv(path, {"token", "weight"}, [](QTextStream& out) {
              out << PlotExporter::csvField(QStringLiteral(",")) << ",0.5\n";
            }).ok());
    QCOMPARE(readAll(path), QByteArray("token,weight\n\",\",0.5\n"));
    // a failing export reports a message and leaves nothing behind
    const ExportResult bad =
        PlotExporter::writeCsv(QStringLiteral("/proc/no/such/dir/x.csv"), {"a"}, nullptr);
    QVERIFY(!bad.ok());
    QVERIFY(!bad.error.isEmpty());
    const ExportResult tiny = PlotExporter::savePng(nullptr, path, {2, 2, 1.0});
    QVERIFY(!tiny.ok());
  }

  void exportDialogAndMenu() {
    ExportDialog dialog;
    // Defaults: a 16:9 slide of 2560 x 1440 pixels with text for a lecture hall.
    QCOMPARE(dialog.choice().size.width, 800);
    QCOMPARE(dialog.choice().size.height, 450);
    QCOMPARE(dialog.choice().size.scale, 3.2);
    auto* text = dialog.findChild<QComboBox*>(QStringLiteral("exportTextSize"));
    QVERIFY(text);
    QCOMPARE(text->currentIndex(), 0);
    text->setCurrentIndex(1);
    Q_EMIT text->activated(1);
    QCOMPARE(dialog.choice().size.width, 1280);  // a slide with screen-size text
    QCOMPARE(dialog.choice().size.scale, 2.0);
    dialog.setChoice({ImageFormat::Svg, {640, 480, 3.0}});
    const ExportDialog::Choice c = dialog.choice();
    QCOMPARE(c.format, ImageFormat::Svg);
    QCOMPARE(c.size.width, 640);
    QCOMPARE(c.size.scale, 1.0);  // scale only applies to PNG
    HeatmapView view;
    QMenu menu;
    ExportMenu::addActions(&menu, &view, &view);
    QStringList texts;
    for (QAction* a : menu.actions()) texts << a->text();
    QCOMPARE(texts, QStringList({"Export as PNG/PDF/SVG…", "Export data as CSV…"}));
  }

  void exportsEveryPanelToAFolder() {
    MetricCurvePanel loss(QStringLiteral("loss"));
    loss.appendTrainPoints(fake::trainLoss(200));
    HeatmapView heatmap;
    fillHeatmap(heatmap);
    heatmap.setExportBaseName(QStringLiteral("known"));
    SamplePanel sample;
    sample.setImagePrediction({fake::ballImage(), "ball", "ball", 0.9f});
    QVERIFY(test::showAndSettle(&loss));
    QVERIFY(test::showAndSettle(&heatmap));
    QVERIFY(test::showAndSettle(&sample));
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("figures"));
    const ExportResult r = PlotExporter::exportToFolder({&loss, &heatmap, &sample}, folder,
                                                        ImageFormat::Svg, ExportSize{});
    QVERIFY2(r.ok(), qPrintable(r.error));
    QStringList files = QDir(folder).entryList(QDir::Files, QDir::Name);
    QCOMPARE(files, QStringList({"known.csv", "known.svg", "loss.csv", "loss.svg", "sample.csv",
                                 "sample.svg"}));
    QVERIFY(readAll(QDir(folder).filePath("known.csv")).startsWith("query axis,alpha,beta"));
    QCOMPARE(PlotExporter::formatForPath(QStringLiteral("x.PDF")), ImageFormat::Pdf);
  }
};

QTEST_MAIN(PlotExporterTest)
#include "plot_exporter_test.moc"
