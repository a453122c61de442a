// Attention in motion: a run folder's stored snapshots exported as an animated GIF and an MP4
// (one head, a layer grid, the CLS overlay), read back with giflib and OpenCV: one frame per
// snapshot, the asked size, frames that change with the step; bad requests refused by value,
// cancelling and failing leave no file behind.
#include <gif_lib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/window/export/attention_video_actions.h"
#include "app/gui/window/export/attention_video_dialog.h"
#include "app/gui/window/export/attention_video_export.h"
#include "app/gui/window/export/mp4_encoder.h"
#include "app/gui/window/export/video_encoder.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/run_controller.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "fake_engine.h"
#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_head_grid_panel.h"

namespace ascope {
namespace {

/// Frames of a GIF as RGB images (each frame drawn through its own or the global palette).
std::vector<QImage> readGif(const QString& path, QSize* screen) {
  int error = 0;
  GifFileType* gif = DGifOpenFileName(QFile::encodeName(path).constData(), &error);
  std::vector<QImage> frames;
  if (gif == nullptr) return frames;
  if (DGifSlurp(gif) == GIF_OK) {
    *screen = QSize(gif->SWidth, gif->SHeight);
    for (int i = 0; i < gif->ImageCount; ++i) {
      const SavedImage& saved = gif->SavedImages[i];
      const ColorMapObject* map =
          saved.ImageDesc.ColorMap != nullptr ? saved.ImageDesc.ColorMap : gif->SColorMap;
      QImage image(saved.ImageDesc.Width, saved.ImageDesc.Height, QImage::Format_RGB888);
      for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
          const GifColorType c =
              map->Colors[saved.RasterBits[static_cast<std::size_t>(y) * image.width() + x]];
          image.setPixelColor(x, y, QColor(c.Red, c.Green, c.Blue));
        }
      }
      frames.push_back(image);
    }
  }
  DGifCloseFile(gif, &error);
  return frames;
}

/// Frames of an MP4 as decoded by OpenCV (BGR), and the container's frame count.
std::vector<cv::Mat> readMp4(const QString& path, double* container_count) {
  cv::VideoCapture capture(QFile::encodeName(path).toStdString(), cv::CAP_FFMPEG);
  std::vector<cv::Mat> frames;
  if (!capture.isOpened()) return frames;
  *container_count = capture.get(cv::CAP_PROP_FRAME_COUNT);
  cv::Mat frame;
  while (capture.read(frame)) frames.push_back(frame.clone());
  return frames;
}

/// Share of pixels that differ by more than a compression artefact would, in `rect`.
double changedShare(const QImage& a, const QImage& b, const QRect& rect) {
  int changed = 0;
  for (int y = rect.top(); y <= rect.bottom(); ++y) {
    for (int x = rect.left(); x <= rect.right(); ++x) {
      const QColor p = a.pixelColor(x, y), q = b.pixelColor(x, y);
      if (std::abs(p.red() - q.red()) + std::abs(p.green() - q.green()) +
              std::abs(p.blue() - q.blue()) >
          60)
        ++changed;
    }
  }
  return changed / double(rect.width() * rect.height());
}

QImage toQImage(const cv::Mat& bgr) {
  QImage image(bgr.cols, bgr.rows, QImage::Format_RGB888);
  for (int y = 0; y < bgr.rows; ++y) {
    for (int x = 0; x < bgr.cols; ++x) {
      const cv::Vec3b p = bgr.at<cv::Vec3b>(y, x);
      image.setPixelColor(x, y, QColor(p[2], p[1], p[0]));
    }
  }
  return image;
}

}  // namespace

class AttentionVideoTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void exportsGifWithAFramePerSnapshot();
  void exportsMp4WithAFramePerSnapshot();
  void exportsLayerGridAndClsOverlay_data();
  void exportsLayerGridAndClsOverlay();
  void refusesBadValuesByName_data();
  void refusesBadValuesByName();
  void replacesAnOlderVideoOnlyWhenDone();
  void cancelLeavesNothingBehind();
  void mp4OntoAFullDiskFailsAndLeavesNothing();
  void partialFilesOfAKilledExportGoAtTheNextStart();
  void leavesOutAnUnreadableSnapshotByName();
  void windowExportLeavesTheWindowAsItWas();
  void dialogOffersWhatTheRunHas();

 private:
  AttentionVideoRequest request(const QString& file) const;
  /// No file of the export's is left in the output folder but `expected`.
  void checkOnlyFiles(const QStringList& expected) const;

  static constexpr int kSnapshots = 5;
  QTemporaryDir dir_;
  QString run_;
  QString out_;
};

void AttentionVideoTest::initTestCase() {
  QVERIFY(dir_.isValid());
  run_ = dir_.filePath(QStringLiteral("run"));
  out_ = dir_.filePath(QStringLiteral("out"));
  QVERIFY(QDir().mkpath(out_));
  // As FakeEngine::writeRunFolder, at steps 11, 22, …: the fake weights depend on the step
  // modulo the 5 tokens, so every snapshot draws a different picture.
  Expected<RunFolder> folder = RunFolder::create(run_.toStdString(), kImageClassificationTaskId);
  QVERIFY(folder.ok());
  Expected<TrainingConfig> config = makePreset(kImageClassificationTaskId, "tiny");
  QVERIFY(config.ok());
  QVERIFY(folder->writeConfig(*config).ok());
  for (int i = 1; i <= kSnapshots; ++i) {
    FakeEngine engine;
    engine.publishAttention(11 * i, kImageClassificationTaskId);
    EventBatch events = engine.drainEvents();
    QVERIFY(events.attention != nullptr);
    QVERIFY(folder->writeProbeSet(*events.attention).ok());
  }
}

AttentionVideoRequest AttentionVideoTest::request(const QString& file) const {
  AttentionVideoRequest r;
  r.path = QDir(out_).filePath(file);
  r.view = AttentionFrameView::Head;
  r.layer = 0;
  r.head = 1;
  r.fps = 5;
  r.size = QSize(320, 180);  // small: the test reads every pixel back
  r.run_name = QStringLiteral("test run");
  return r;
}

void AttentionVideoTest::checkOnlyFiles(const QStringList& expected) const {
  QStringList names = QDir(out_).entryList(QDir::Files | QDir::Hidden);
  names.sort();
  QStringList sorted = expected;
  sorted.sort();
  QCOMPARE(names, sorted);
}

void AttentionVideoTest::exportsGifWithAFramePerSnapshot() {
  AttentionVideoExport exporter;
  QSignalSpy progress(&exporter, &AttentionVideoExport::progress);
  const AttentionVideoResult result = exporter.run(run_, request(QStringLiteral("head.gif")));
  QVERIFY2(result.ok(), qPrintable(result.error));
  QCOMPARE(result.frames, kSnapshots);
  QVERIFY(result.bytes > 0);
  QVERIFY(!progress.isEmpty());

  QSize screen;
  const std::vector<QImage> frames =
      readGif(QDir(out_).filePath(QStringLiteral("head.gif")), &screen);
  QCOMPARE(static_cast<int>(frames.size()), kSnapshots);
  QCOMPARE(screen, QSize(320, 180));
  QCOMPARE(frames.front().size(), QSize(320, 180));
  // The caption bar (top twelfth) names another step, and the heatmap below it changed.
  const QRect caption(0, 0, 320, 14), body(0, 20, 320, 160);
  for (std::size_t i = 1; i < frames.size(); ++i) {
    QVERIFY2(changedShare(frames[i - 1], frames[i], caption) > 0.002,
             qPrintable(QString::number(i)));
    QVERIFY2(changedShare(frames[i - 1], frames[i], body) > 0.01, qPrintable(QString::number(i)));
  }
  checkOnlyFiles({QStringLiteral("head.gif")});
  QFile::remove(QDir(out_).filePath(QStringLiteral("head.gif")));
}

void AttentionVideoTest::exportsMp4WithAFramePerSnapshot() {
  AttentionVideoExport exporter;
  const AttentionVideoResult result = exporter.run(run_, request(QStringLiteral("head.mp4")));
  QVERIFY2(result.ok(), qPrintable(result.error));
  QCOMPARE(result.frames, kSnapshots);

  double container_count = 0;
  const std::vector<cv::Mat> frames =
      readMp4(QDir(out_).filePath(QStringLiteral("head.mp4")), &container_count);
  QCOMPARE(static_cast<int>(frames.size()), kSnapshots);
  QCOMPARE(static_cast<int>(container_count), kSnapshots);
  QCOMPARE(frames.front().cols, 320);
  QCOMPARE(frames.front().rows, 180);
  const QImage first = toQImage(frames.front()), last = toQImage(frames.back());
  QVERIFY(changedShare(first, last, QRect(0, 20, 320, 160)) > 0.01);
  checkOnlyFiles({QStringLiteral("head.mp4")});
  QFile::remove(QDir(out_).filePath(QStringLiteral("head.mp4")));
}

void AttentionVideoTest::exportsLayerGridAndClsOverlay_data() {
  QTest::addColumn<int>("view");
  QTest::addColumn<QString>("file");
  QTest::newRow("layer grid gif") << int(AttentionFrameView::LayerGrid)
                                  << QStringLiteral("grid.gif");
  QTest::newRow("cls overlay mp4")
      << int(AttentionFrameView::ClsOverlay) << QStringLiteral("cls.mp4");
}

void AttentionVideoTest::exportsLayerGridAndClsOverlay() {
  QFETCH(int, view);
  QFETCH(QString, file);
  AttentionVideoRequest r = request(file);
  r.view = static_cast<AttentionFrameView>(view);
  r.layer = 1;
  AttentionVideoExport exporter;
  const AttentionVideoResult result = exporter.run(run_, r);
  QVERIFY2(result.ok(), qPrintable(result.error));
  QCOMPARE(result.frames, kSnapshots);
  const QString path = QDir(out_).filePath(file);
  if (file.endsWith(QLatin1String(".gif"))) {
    QSize screen;
    QCOMPARE(static_cast<int>(readGif(path, &screen).size()), kSnapshots);
  } else {
    double count = 0;
    QCOMPARE(static_cast<int>(readMp4(path, &count).size()), kSnapshots);
  }
  QFile::remove(path);
}

void AttentionVideoTest::refusesBadValuesByName_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<int>("layer");
  QTest::addColumn<int>("head");
  QTest::addColumn<int>("fps");
  QTest::addColumn<QString>("named");
  QTest::newRow("layer") << QStringLiteral("a.gif") << 7 << 0 << 5 << QStringLiteral("layer 7");
  QTest::newRow("head") << QStringLiteral("a.gif") << 0 << 9 << 5 << QStringLiteral("head 9");
  QTest::newRow("extension") << QStringLiteral("a.avi") << 0 << 0 << 5 << QStringLiteral("\"avi\"");
  QTest::newRow("fps") << QStringLiteral("a.gif") << 0 << 0 << 80 << QStringLiteral("80");
  QTest::newRow("folder") << QStringLiteral("missing/a.gif") << 0 << 0 << 5
                          << QStringLiteral("missing");
}

void AttentionVideoTest::refusesBadValuesByName() {
  QFETCH(QString, file);
  QFETCH(int, layer);
  QFETCH(int, head);
  QFETCH(int, fps);
  QFETCH(QString, named);
  AttentionVideoRequest r = request(file);
  r.layer = layer;
  r.head = head;
  r.fps = fps;
  AttentionVideoExport exporter;
  const AttentionVideoResult result = exporter.run(run_, r);
  QVERIFY(!result.ok());
  QVERIFY(result.bad_request);
  QVERIFY2(result.error.contains(named), qPrintable(result.error));
  checkOnlyFiles({});
}

void AttentionVideoTest::replacesAnOlderVideoOnlyWhenDone() {
  const QString path = QDir(out_).filePath(QStringLiteral("old.gif"));
  {
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("an older video");
  }
  AttentionVideoRequest r = request(QStringLiteral("old.gif"));
  r.layer = 5;  // refused once the run is read: the older file must stay as it was
  AttentionVideoExport exporter;
  QVERIFY(!exporter.run(run_, r).ok());
  QCOMPARE(QFileInfo(path).size(), qint64(14));
  r.layer = 0;
  QVERIFY(exporter.run(run_, r).ok());  // the same object exports again
  QSize screen;
  QCOMPARE(static_cast<int>(readGif(path, &screen).size()), kSnapshots);
  checkOnlyFiles({QStringLiteral("old.gif")});
  QFile::remove(path);
}

void AttentionVideoTest::cancelLeavesNothingBehind() {
  AttentionVideoExport exporter;
  QSignalSpy finished(&exporter, &AttentionVideoExport::finished);
  // Cancelled once the first frames are under way (progress with a known total).
  connect(&exporter, &AttentionVideoExport::progress, &exporter, [&exporter](int, int total) {
    if (total > 0) exporter.cancel();
  });
  exporter.start(run_, request(QStringLiteral("cancelled.mp4")));
  QVERIFY(finished.wait(20000));
  const auto result = finished.front().front().value<AttentionVideoResult>();
  QVERIFY(result.cancelled);
  QVERIFY(!result.ok());
  checkOnlyFiles({});
}

void AttentionVideoTest::mp4OntoAFullDiskFailsAndLeavesNothing() {
  // OpenCV's writer reports no I/O error: on a full disk the export said "wrote v.mp4: 3 frames"
  // and left a file with an empty media box and no index. RLIMIT_FSIZE stands in for
  // the full disk: writes past it fail (SIGXFSZ ignored meanwhile).
  rlimit saved{};
  QCOMPARE(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto previous = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 2048;
  QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
  AttentionVideoExport exporter;
  const AttentionVideoResult result = exporter.run(run_, request(QStringLiteral("full.mp4")));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  QVERIFY2(!result.ok(), "an unplayable MP4 was reported as written");
  QVERIFY2(result.error.contains(QStringLiteral("MP4")), qPrintable(result.error));
  checkOnlyFiles({});
  // The check itself: a whole MP4 passes, the same file cut short does not.
  QVERIFY(exporter.run(run_, request(QStringLiteral("whole.mp4"))).ok());
  const QString whole = QDir(out_).filePath(QStringLiteral("whole.mp4"));
  QCOMPARE(Mp4Encoder::checkMp4File(whole), QString());
  QFile file(whole);
  QVERIFY(file.open(QIODevice::ReadWrite));
  QVERIFY(file.resize(file.size() / 2));
  file.close();
  QVERIFY(!Mp4Encoder::checkMp4File(whole).isEmpty());
  QFile::remove(whole);
}

void AttentionVideoTest::partialFilesOfAKilledExportGoAtTheNextStart() {
  // A kill -9 mid-export left ".NAME.partial-PID-N.mp4" in the destination.
  const pid_t dead = ::fork();  // a process that has ended: a child that exited, reaped
  if (dead == 0) ::_exit(0);
  int status = 0;
  ::waitpid(dead, &status, 0);
  const QString stale = QDir(out_).filePath(QStringLiteral(".talk.partial-%1-0.mp4").arg(dead));
  const QString alive = QDir(out_).filePath(
      QStringLiteral(".talk.partial-%1-7.gif").arg(QCoreApplication::applicationPid()));
  for (const QString& path : {stale, alive}) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("half a video");
  }
  AttentionVideoExport exporter;
  QVERIFY(exporter.run(run_, request(QStringLiteral("next.gif"))).ok());
  QVERIFY2(!QFile::exists(stale), "the dead export's partial file is still there");
  QVERIFY2(QFile::exists(alive), "a running export's partial file was removed");
  QFile::remove(alive);
  QFile::remove(QDir(out_).filePath(QStringLiteral("next.gif")));
  checkOnlyFiles({});
}

void AttentionVideoTest::leavesOutAnUnreadableSnapshotByName() {
  const QString run = dir_.filePath(QStringLiteral("damaged"));
  QVERIFY(QDir().mkpath(QDir(run).filePath(QStringLiteral("attention"))));
  QVERIFY(QFile::copy(QDir(run_).filePath(QStringLiteral("config.json")),
                      QDir(run).filePath(QStringLiteral("config.json"))));
  const QDir from(QDir(run_).filePath(QStringLiteral("attention")));
  const QStringList files = from.entryList(QDir::Files, QDir::Name);
  QCOMPARE(files.size(), kSnapshots);
  for (const QString& file : files)
    QVERIFY(
        QFile::copy(from.filePath(file), QDir(run).filePath(QStringLiteral("attention/") + file)));
  const QString damaged = QDir(run).filePath(QStringLiteral("attention/") + files[2]);
  {
    QFile file(damaged);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("not a snapshot");
  }
  AttentionVideoExport exporter;
  const AttentionVideoResult result = exporter.run(run, request(QStringLiteral("damaged.gif")));
  QVERIFY2(result.ok(), qPrintable(result.error));
  QCOMPARE(result.frames, kSnapshots - 1);
  QCOMPARE(result.skipped, 1);
  QVERIFY2(result.warnings.join(QLatin1Char('\n')).contains(files[2]),
           qPrintable(result.warnings.join(QLatin1Char('\n'))));
  QSize screen;
  QCOMPARE(
      static_cast<int>(readGif(QDir(out_).filePath(QStringLiteral("damaged.gif")), &screen).size()),
      kSnapshots - 1);
  QFile::remove(QDir(out_).filePath(QStringLiteral("damaged.gif")));
}

void AttentionVideoTest::windowExportLeavesTheWindowAsItWas() {
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  QSignalSpy opened(window.controller(), &RunController::runOpened);
  window.controller()->openRun(run_);
  QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 5000);
  AttentionPresenter* timeline = window.attention();
  timeline->waitForLoad();
  timeline->showStep(22);
  timeline->waitForLoad();
  AttentionHeadGridPanel* panel = timeline->panel();
  panel->setCurrentLayer(1);
  panel->setCurrentHead(1);
  const QSize grid_size = panel->headGrid()->size();

  // File → Export attention video… is there, named for scripts and tests.
  bool in_menu = false;
  for (QAction* menu : window.menuBar()->actions()) {
    if (menu->menu() == nullptr) continue;
    for (QAction* action : menu->menu()->actions())
      in_menu = in_menu || action->objectName() == QLatin1String("exportAttentionVideo");
  }
  QVERIFY(in_menu);

  AttentionVideoActions* actions = window.videoExporter();
  AttentionVideoRequest r = actions->requestFor(QDir(out_).filePath(QStringLiteral("window.gif")),
                                                AttentionFrameView::LayerGrid, 1, 0, 4);
  QCOMPARE(r.group, panel->snapshot().groups.front().name);
  QCOMPARE(r.run_name, QStringLiteral("run"));
  r.size = QSize(320, 180);
  const AttentionVideoResult result = actions->exporter()->run(window.currentRun()->folder(), r);
  QVERIFY2(result.ok(), qPrintable(result.error));
  QCOMPARE(result.frames, kSnapshots);
  // The window still shows the step, layer and head it showed, at the size it had.
  QCOMPARE(timeline->shownStep(), 22LL);
  QCOMPARE(panel->snapshot().step, 22LL);
  QCOMPARE(panel->currentLayer(), 1);
  QCOMPARE(panel->currentHead(), 1);
  QCOMPARE(panel->headGrid()->size(), grid_size);
  QFile::remove(r.path);

  // As from the menu: a progress dialog while it runs, a message when done or cancelled.
  QSignalSpy messages(actions, &AttentionVideoActions::message);
  actions->startWithProgress(r);
  QVERIFY(actions->progressDialog() != nullptr);
  QTRY_COMPARE_WITH_TIMEOUT(messages.size(), 1, 20000);
  QVERIFY2(
      messages.front().front().toString().contains(QStringLiteral("%1 frames").arg(kSnapshots)),
      qPrintable(messages.front().front().toString()));
  QVERIFY(actions->progressDialog() == nullptr);
  QVERIFY(QFileInfo::exists(r.path));
  QFile::remove(r.path);
  actions->startWithProgress(r);
  QPushButton* cancel = actions->progressDialog()->findChild<QPushButton*>();
  QVERIFY(cancel != nullptr);
  cancel->click();
  QTRY_COMPARE_WITH_TIMEOUT(messages.size(), 2, 20000);
  QVERIFY2(messages.back().front().toString().contains(QStringLiteral("cancelled")),
           qPrintable(messages.back().front().toString()));
  checkOnlyFiles({});
}

void AttentionVideoTest::dialogOffersWhatTheRunHas() {
  AttentionVideoDialog text_run(3, 4, false, 12);
  QCOMPARE(text_run.viewBox()->count(), 2);  // no image: no CLS overlay
  QCOMPARE(text_run.layerBox()->maximum(), 2);
  QCOMPARE(text_run.headBox()->maximum(), 3);
  text_run.setChoice(AttentionFrameView::LayerGrid, 2, 1, VideoFormat::Mp4, 60);
  QCOMPARE(text_run.view(), AttentionFrameView::LayerGrid);
  QVERIFY(!text_run.headBox()->isEnabled());  // a grid shows every head
  QCOMPARE(text_run.format(), VideoFormat::Mp4);
  QCOMPARE(text_run.fps(), 60);
  // A GIF's delays are hundredths of a second: the frame rate is capped where it still plays.
  text_run.formatBox()->setCurrentIndex(text_run.formatBox()->findData(int(VideoFormat::Gif)));
  QCOMPARE(text_run.fps(), VideoEncoder::kMaxGifFps);

  AttentionVideoDialog vit_run(2, 2, true, 5);
  QCOMPARE(vit_run.viewBox()->count(), 3);
  vit_run.setChoice(AttentionFrameView::ClsOverlay, 1, 1, VideoFormat::Gif, 4);
  QCOMPARE(vit_run.view(), AttentionFrameView::ClsOverlay);
  QCOMPARE(vit_run.layer(), 1);
  QCOMPARE(vit_run.head(), 1);
  if (qEnvironmentVariableIsSet("ATTENTIONSCOPE_SHOTS")) {
    vit_run.show();
    QVERIFY(vit_run.grab().save(QDir(qEnvironmentVariable("ATTENTIONSCOPE_SHOTS"))
                                    .filePath(QStringLiteral("video_dialog.png"))));
  }
}

}  // namespace ascope

QTEST_MAIN(ascope::AttentionVideoTest)
#include "attention_video_test.moc"
