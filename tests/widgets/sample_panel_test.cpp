// SamplePanel: planar image decoding and crisp upscaling, verdict colours, translation diff.

#include "widgets/samples/sample_panel.h"
#include "fake_data.h"
#include "widget_test_util.h"
#include "widgets/common/plot_theme.h"
#include "widgets/images/pixel_image_view.h"
#include "widgets/samples/word_diff.h"

#include <QFile>
#include <QLabel>
#include <QTemporaryDir>

#include <QTextBrowser>
#include "widgets/common/plot_theme.h"
#include "widgets/samples/text_alignment_view.h"

using namespace ascope;

namespace {

// 2x2 image: red, green / blue, white, as R plane, G plane, B plane.
RgbImage quadImage() {
  RgbImage image;
  image.width = 2;
  image.height = 2;
  image.planar = {255, 0,   0,   255,   // R
                  0,   255, 0,   255,   // G
                  0,   0,   255, 255};  // B
  return image;
}

}  // namespace

class SamplePanelTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void planarBytesBecomePixels() {
    const QImage image = quadImage().toQImage();
    QCOMPARE(image.size(), QSize(2, 2));
    QCOMPARE(image.pixelColor(0, 0), QColor(255, 0, 0));
    QCOMPARE(image.pixelColor(1, 0), QColor(0, 255, 0));
    QCOMPARE(image.pixelColor(0, 1), QColor(0, 0, 255));
    QCOMPARE(image.pixelColor(1, 1), QColor(255, 255, 255));
    RgbImage grey{2, 1, 1, {10, 200}};
    QCOMPARE(grey.toQImage().pixelColor(1, 0), QColor(200, 200, 200));
    RgbImage broken{2, 2, 3, {1, 2, 3}};
    QVERIFY(broken.toQImage().isNull());
  }

  void imageIsUpscaledCrisp() {
    SamplePanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(400, 400)));
    panel.setImagePrediction({quadImage(), QStringLiteral("cat"), QStringLiteral("cat"), 0.9f});
    QCOMPARE(panel.mode(), SamplePanel::Mode::Image);
    test::settle();
    PixelImageView* view = panel.imageView();
    const QRect target = view->imageRect();
    QVERIFY(target.width() >= 100);
    QCOMPARE(target.width() % 2, 0);  // a whole multiple of the 2-pixel source
    const QImage shot = view->grab().toImage();
    // every screen pixel inside a source pixel has exactly its colour: no smoothing at the seams
    const int half = target.width() / 2;
    const QRect red(target.topLeft(), QSize(half, half));
    QVERIFY(test::isUniform(shot, red));
    QCOMPARE(shot.pixelColor(red.bottomRight()), QColor(255, 0, 0));
    QCOMPARE(shot.pixelColor(red.bottomRight() + QPoint(1, 0)), QColor(0, 255, 0));
    QCOMPARE(shot.pixelColor(red.bottomRight() + QPoint(1, 1)), QColor(255, 255, 255));
  }

  void verdictIsGreenWhenRightAndRedWhenWrong() {
    SamplePanel panel;
    const PlotTheme theme = PlotTheme::fromPalette(panel.palette(), panel.font());
    panel.setImagePrediction({quadImage(), QStringLiteral("cat"), QStringLiteral("cat"), 0.873f});
    QVERIFY(panel.isCorrect());
    QString html = panel.verdictLabel()->text();
    QVERIFY(html.contains(theme.good.name()));
    QVERIFY(html.contains(QStringLiteral("87.3 %")));
    panel.setImagePrediction({quadImage(), QStringLiteral("cat"), QStringLiteral("dog"), 0.51f});
    QVERIFY(!panel.isCorrect());
    html = panel.verdictLabel()->text();
    QVERIFY(html.contains(theme.bad.name()));
    QVERIFY(!html.contains(theme.good.name()));
    QVERIFY(html.contains(QStringLiteral("dog")) && html.contains(QStringLiteral("cat")));
  }

  void textReviewWithLabel() {
    SamplePanel panel;
    panel.setTextPrediction({QStringLiteral("Great film <3"), QStringLiteral("positive"),
                             QStringLiteral("negative"), 0.7f});
    QCOMPARE(panel.mode(), SamplePanel::Mode::Text);
    QCOMPARE(panel.textView()->toPlainText(), QStringLiteral("Great film <3"));
    QVERIFY(panel.verdictLabel()->text().contains(QStringLiteral("negative")));
    QVERIFY(!panel.isCorrect());
  }

  void wordDiffMarksMissingAndWrongWords() {
    const WordDiff diff = WordDiff::compare(QStringLiteral("le chat noir était assis"),
                                            QStringLiteral("Le chat est assis"));
    QCOMPARE(diff.reference.size(), size_t(5));
    QCOMPARE(diff.hypothesis.size(), size_t(4));
    const std::vector<bool> ref = {true, true, false, false, true};
    const std::vector<bool> hyp = {true, true, false, true};
    for (size_t i = 0; i < ref.size(); ++i) QCOMPARE(diff.reference[i].matched, ref[i]);
    for (size_t i = 0; i < hyp.size(); ++i) QCOMPARE(diff.hypothesis[i].matched, hyp[i]);
    QCOMPARE(diff.matchedCount(), 3);
    QCOMPARE(WordDiff::compare(QString(), QStringLiteral("a b")).matchedCount(), 0);
  }

  void translationHighlightsDifferences() {
    SamplePanel panel;
    panel.setTranslation({QStringLiteral("the black cat"), QStringLiteral("le chat noir"),
                          QStringLiteral("le chien noir"), 120});
    QCOMPARE(panel.mode(), SamplePanel::Mode::Translation);
    const QString html = panel.translationView()->toHtml();
    // A probe translates now and then: the output says which step's weights wrote it.
    QVERIFY(html.contains(QStringLiteral("STEP 120")));
    const QString text = panel.translationView()->toPlainText();
    QVERIFY(text.contains(QStringLiteral("the black cat")));
    QVERIFY(text.contains(QStringLiteral("le chien noir")));
    QVERIFY(text.contains(QStringLiteral("2 of 3 output words match")));
    // the differing words carry highlight formatting, the matching ones do not
    QVERIFY(html.contains(QRegularExpression(
        QStringLiteral("<span style=\"[^\"]*background-color[^\"]*\">chien</span>"))));
    QVERIFY(html.contains(
        QRegularExpression(QStringLiteral("<span style=\"[^\"]*underline[^\"]*\">chat</span>"))));
    QVERIFY(
        !html.contains(QRegularExpression(QStringLiteral("<span style=\"[^\"]*\">noir</span>"))));
  }

  void ownSentenceHasNoReferenceToMiss() {
    SamplePanel panel;
    panel.setTranslation(
        {QStringLiteral("the black cat"), QString(), QStringLiteral("il gatto"), -1});
    const QString text = panel.translationView()->toPlainText();
    QVERIFY(text.contains(QStringLiteral("il gatto")));
    QVERIFY(text.contains(QStringLiteral("no reference")));
    QVERIFY2(!text.contains(QStringLiteral("match")), qPrintable(text));
    QVERIFY(!panel.translationView()->toHtml().contains(QStringLiteral("background-color")));
  }

  void emptyAndExport() {
    SamplePanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(400, 300)));
    QCOMPARE(panel.mode(), SamplePanel::Mode::Empty);
    panel.setImagePrediction(
        {fake::ballImage(), QStringLiteral("ball"), QStringLiteral("ball"), 0.8f});
    test::settle();
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("s.png"));
    QVERIFY(panel.exportImage(png, ImageFormat::Png, {800, 600, 1.0}).ok());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(800, 600));
    QVERIFY(test::countPixelsNear(image, image.rect(), QColor(230, 40, 40), 60) > 100);  // the ball
    const QString csv = dir.filePath(QStringLiteral("s.csv"));
    QVERIFY(panel.exportCsv(csv).ok());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("field,value"));
    QCOMPARE(lines[1], QStringLiteral("true_label,ball"));
    panel.clear();
    QCOMPARE(panel.mode(), SamplePanel::Mode::Empty);
  }

  void alignmentShowsEachEditInItsColour() {
    SamplePanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(420, 300)));
    using Edit = AlignedColumn::Edit;
    AlignmentPrediction a;
    a.input = QStringLiteral("cat");
    a.input_title = QStringLiteral("word");
    a.expected_title = QStringLiteral("reversed");
    a.columns = {{Edit::Match, QStringLiteral("t"), QStringLiteral("t")},
                 {Edit::Substitute, QStringLiteral("a"), QStringLiteral("o")},
                 {Edit::Delete, QStringLiteral("c"), QString()},
                 {Edit::Insert, QString(), QStringLiteral("s")}};
    panel.setAlignment(a);
    QCOMPARE(panel.mode(), SamplePanel::Mode::Alignment);
    QVERIFY(!panel.isCorrect());
    TextAlignmentView* view = panel.alignmentView();
    QCOMPARE(view->distance(), 3);
    test::settle();
    const QImage shot = view->grab().toImage();
    // A substituted column is red, a deleted one orange, an inserted one blue: each is drawn.
    const PlotTheme theme = PlotTheme::fromPalette(view->palette(), view->font());
    QVERIFY(test::countPixelsNear(shot, shot.rect(),
                                  PlotTheme::mix(theme.background, theme.bad, 0.27), 40) > 20);
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("a.csv"));
    QVERIFY(panel.exportCsv(csv).ok());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("edits,=x-+")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("edit_distance,3")));
    QVERIFY(text.contains(QStringLiteral("reversed,tac-")));
    // Narrower than its key: the distance stays readable.
    view->resize(120, view->height());
    QVERIFY(!view->grab().toImage().isNull());
  }
};

QTEST_MAIN(SamplePanelTest)
#include "sample_panel_test.moc"
