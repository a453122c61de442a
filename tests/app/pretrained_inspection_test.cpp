// File → Inspect pretrained model…: the tiny BERT fixture reads a sentence pair off the GUI
// thread; the model view shows layers × heads thumbnails over the engine's own tokens and
// weights, a click enlarges that head in the Attention dock, a folder that is no model gives the
// engine's message, and the scripted --inspect-model takes the model view's screenshot.
#include <QAction>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/window/dialogs/pretrained_inspection_window.h"
#include "app/gui/window/main/main_window.h"
#include "engine/inference/pretrained_inspection.h"
#include "test_paths.h"
#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/attention_model_view.h"
#include "widgets/common/plot_theme.h"

namespace ascope {
namespace {

const QString kTinyBert =
    QString::fromUtf8(test_paths::fixturesDir()) + QStringLiteral("/hf/tiny_bert");
const QString kSentence = QStringLiteral("the movie was great");
const QString kPair = QStringLiteral("it was");

}  // namespace

class PretrainedInspectionTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void menuOpensTheWindow();
  void modelViewShowsEveryHeadOverTheEnginesTokens();
  void clickEnlargesThatHeadInTheAttentionDock();
  void folderWithoutModelGivesTheEnginesMessage();
  void vitReadsAnImage();
  void scriptedInspectionTakesTheModelViewsScreenshot();

 private:
  /// Inspects tiny_bert with the sentence pair in `window`; false (test failed) when no answer.
  static PretrainedInspectionWindow* inspect(MainWindow& window) {
    auto* inspection = window.findChild<PretrainedInspectionWindow*>();
    if (inspection == nullptr) return nullptr;
    inspection->open();
    inspection->resize(1000, 700);
    inspection->setModelFolder(kTinyBert);
    QSignalSpy answered(inspection, &PretrainedInspectionWindow::inspected);
    inspection->inspectText(kSentence, kPair);
    if (!answered.wait(60000)) return nullptr;
    if (!answered.front().at(1).toBool()) {
      qWarning() << answered.front().at(0).toString();
      return nullptr;
    }
    return inspection;
  }
};

void PretrainedInspectionTest::menuOpensTheWindow() {
  MainWindow window;
  QAction* action = nullptr;
  for (QAction* a : window.menuBar()->actions().front()->menu()->actions()) {
    if (a->text().contains(QStringLiteral("Inspect pretrained model"))) action = a;
  }
  QVERIFY(action != nullptr);
  auto* inspection = window.findChild<PretrainedInspectionWindow*>();
  QVERIFY(inspection != nullptr);
  QVERIFY(!inspection->isVisible());
  window.show();
  action->trigger();
  QVERIFY(inspection->isVisible());
  QVERIFY(inspection->isWindow());
}

void PretrainedInspectionTest::modelViewShowsEveryHeadOverTheEnginesTokens() {
  MainWindow window;
  window.show();
  PretrainedInspectionWindow* inspection = inspect(window);
  QVERIFY(inspection != nullptr);

  // What the engine answers for the same input, asked here directly.
  PretrainedInspectionRequest request;
  request.model_folder = kTinyBert.toStdString();
  request.text = kSentence.toStdString();
  request.text_pair = kPair.toStdString();
  Expected<InferenceAnswer> answer = inspectPretrained(request);
  QVERIFY2(answer.ok(), answer.ok() ? "" : answer.error().c_str());
  const AttentionGroup& group = answer->attention.groups.front();
  const int tokens = static_cast<int>(group.col_labels.size());
  QCOMPARE(tokens, 9);  // [CLS] the movie was great [SEP] it was [SEP]

  AttentionModelView* view = inspection->modelView();
  QCOMPARE(view->layerCount(), group.layers);
  QCOMPARE(view->headCount(), group.heads);
  QStringList expected_tokens;
  for (const std::string& t : group.col_labels) expected_tokens << QString::fromStdString(t);
  QCOMPARE(view->tokens(), expected_tokens);
  QVERIFY(inspection->findChild<QLabel*>(QStringLiteral("inspectTokens"))
              ->text()
              .contains(QStringLiteral("[CLS] the movie was great [SEP] it was [SEP]")));
  QVERIFY(inspection->answerLabel()->text().contains(QString::fromStdString(answer->label)));
  QCOMPARE(inspection->textInput()->text(), kSentence);
  QCOMPARE(inspection->pairInput()->text(), kPair);

  // Every thumbnail is its head, one pixel per weight; its largest weight is drawn in the
  // gradient's top colour (each thumbnail on its own head's scale).
  QCPColorGradient gradient =
      AttentionHeadDisplay::gradient(PlotTheme::fromPalette(view->palette(), view->font()));
  const QRgb top = gradient.color(1.0, QCPRange(0.0, 1.0));
  for (int layer = 0; layer < group.layers; ++layer) {
    for (int head = 0; head < group.heads; ++head) {
      const QImage image = view->thumbnail(layer, head);
      QCOMPARE(image.size(), QSize(tokens, tokens));
      QVERIFY(!view->thumbnailRect(layer, head).isEmpty());
      const AttentionMap& map = group.map(layer, head);
      std::size_t best = 0;
      for (std::size_t i = 0; i < map.values.size(); ++i) {
        if (map.values[i] > map.values[best]) best = i;
      }
      const int row = static_cast<int>(best) / map.cols, col = static_cast<int>(best) % map.cols;
      QCOMPARE(image.pixel(col, row), top);
    }
  }
  QVERIFY(view->thumbnail(group.layers, 0).isNull());

  // The same answer is under the scope in the Attention dock.
  AttentionPresenter* attention = window.attention();
  QVERIFY(attention->isShowingAsked());
  QCOMPARE(attention->panel()->layerCount(), group.layers);
  QCOMPARE(attention->panel()->headCount(), group.heads);
}

void PretrainedInspectionTest::clickEnlargesThatHeadInTheAttentionDock() {
  MainWindow window;
  window.show();
  PretrainedInspectionWindow* inspection = inspect(window);
  QVERIFY(inspection != nullptr);
  AttentionModelView* view = inspection->modelView();
  QVERIFY(QTest::qWaitForWindowExposed(inspection));
  AttentionHeadGridPanel* panel = window.attention()->panel();
  QCOMPARE(panel->currentLayer(), 0);
  QCOMPARE(panel->currentHead(), 0);

  const QRect target = view->thumbnailRect(1, 2);
  int layer = -1, head = -1;
  QVERIFY(view->headAt(target.center(), &layer, &head));
  QCOMPARE(layer, 1);
  QCOMPARE(head, 2);
  QSignalSpy clicked(view, &AttentionModelView::headClicked);
  QTest::mouseClick(view, Qt::LeftButton, {}, target.center());
  QCOMPARE(clicked.count(), 1);
  QCOMPARE(view->selectedLayer(), 1);
  QCOMPARE(view->selectedHead(), 2);
  QCOMPARE(panel->currentLayer(), 1);
  QCOMPARE(panel->currentHead(), 2);
  // The enlarged head is that head's weights.
  const LabeledMatrix& shown = panel->snapshot().groups[panel->currentGroup()].layers[1][2];
  QCOMPARE(shown.cols, 9);
  QCOMPARE(shown.col_labels.front(), QStringLiteral("[CLS]"));

  // A click between the thumbnails changes nothing.
  const QRect first = view->thumbnailRect(0, 0);
  QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(first.right() + 2, first.center().y()));
  QCOMPARE(clicked.count(), 1);
  QCOMPARE(panel->currentHead(), 2);
}

void PretrainedInspectionTest::folderWithoutModelGivesTheEnginesMessage() {
  MainWindow window;
  auto* inspection = window.findChild<PretrainedInspectionWindow*>();
  QVERIFY(inspection != nullptr);
  QTemporaryDir empty;
  QVERIFY(empty.isValid());
  inspection->setModelFolder(empty.path());
  QSignalSpy answered(inspection, &PretrainedInspectionWindow::inspected);
  inspection->inspectText(kSentence);
  QVERIFY(answered.wait(30000));
  QCOMPARE(answered.front().at(1).toBool(), false);
  const QString message = inspection->answerLabel()->text();
  QVERIFY2(message.contains(QStringLiteral("config.json")), qPrintable(message));
  QCOMPARE(inspection->modelView()->layerCount(), 0);
  QVERIFY(!window.attention()->isShowingAsked());

  // The window keeps working: the real model answers next.
  inspection->setModelFolder(kTinyBert);
  answered.clear();
  inspection->inspectText(kSentence);
  QVERIFY(answered.wait(60000));
  QCOMPARE(answered.front().at(1).toBool(), true);
  QCOMPARE(inspection->modelView()->layerCount(), 2);
  QCOMPARE(inspection->modelView()->tokens().size(), 6);  // [CLS] the movie was great [SEP]
}

void PretrainedInspectionTest::vitReadsAnImage() {
  MainWindow window;
  auto* inspection = window.findChild<PretrainedInspectionWindow*>();
  QVERIFY(inspection != nullptr);
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  QImage picture(32, 32, QImage::Format_RGB32);
  picture.fill(Qt::white);
  for (int y = 8; y < 24; ++y) {
    for (int x = 8; x < 24; ++x) picture.setPixel(x, y, qRgb(200, 30, 30));
  }
  const QString path = dir.filePath(QStringLiteral("square.png"));
  QVERIFY(picture.save(path));
  inspection->setModelFolder(QString::fromUtf8(test_paths::fixturesDir()) +
                             QStringLiteral("/hf/tiny_vit"));
  QSignalSpy answered(inspection, &PretrainedInspectionWindow::inspected);
  // Text is refused by a ViT with the engine's reason; the image is read.
  inspection->inspectText(kSentence);
  QVERIFY(answered.wait(30000));
  QCOMPARE(answered.front().at(1).toBool(), false);
  QVERIFY(answered.front().at(0).toString().contains(QStringLiteral("ViT")));
  answered.clear();
  inspection->inspectImage(path);
  QVERIFY(answered.wait(60000));
  QVERIFY2(answered.front().at(1).toBool(), qPrintable(answered.front().at(0).toString()));
  AttentionModelView* view = inspection->modelView();
  QCOMPARE(view->layerCount(), 2);
  QCOMPARE(view->headCount(), 4);
  QCOMPARE(view->tokens().size(), 17);  // CLS and 4 × 4 patches of 8 pixels
  QCOMPARE(view->thumbnail(1, 3).size(), QSize(17, 17));
  // The Attention dock lays the CLS token's attention over the picture.
  QVERIFY(window.attention()->panel()->snapshot().image.isValid());
}

void PretrainedInspectionTest::scriptedInspectionTakesTheModelViewsScreenshot() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString shot = dir.filePath(QStringLiteral("model.png"));
  QProcess app;
  app.setProcessChannelMode(QProcess::MergedChannels);
  app.start(QString::fromUtf8(test_paths::appProgram()),
            {QStringLiteral("--inspect-model"), kTinyBert, QStringLiteral("--text"), kSentence,
             QStringLiteral("--pair"), kPair, QStringLiteral("--screenshot"), shot,
             QStringLiteral("--size"), QStringLiteral("1280x720"), QStringLiteral("--quit")});
  QVERIFY(app.waitForFinished(120000));
  const QString output = QString::fromLocal8Bit(app.readAll());
  QVERIFY2(app.exitCode() == 0, qPrintable(output));
  QVERIFY2(output.contains(QStringLiteral("inspected")), qPrintable(output));
  const QImage image(shot);
  QCOMPARE(image.size(), QSize(1280, 720));

  QTemporaryDir empty;
  app.start(QString::fromUtf8(test_paths::appProgram()),
            {QStringLiteral("--inspect-model"), empty.path(), QStringLiteral("--text"), kSentence,
             QStringLiteral("--quit")});
  QVERIFY(app.waitForFinished(120000));
  const QString refused = QString::fromLocal8Bit(app.readAll());
  QCOMPARE(app.exitCode(), 1);
  QVERIFY2(refused.contains(QStringLiteral("config.json")), qPrintable(refused));
}

}  // namespace ascope

QTEST_MAIN(ascope::PretrainedInspectionTest)
#include "pretrained_inspection_test.moc"
