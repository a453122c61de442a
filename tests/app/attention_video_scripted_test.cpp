// End to end: the real attentionscope binary opens a run folder and exports its attention as a
// video (`--open RUN --export-video FILE --layer L --head H --quit`): exit code 0 and one frame
// per stored snapshot; bad values end with exit code 2 and a message naming the value.
#include <gif_lib.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include "fake_engine.h"
#include "offscreen_app.h"

namespace ascope {

class AttentionVideoScriptedTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void exportsAFramePerSnapshot_data();
  void exportsAFramePerSnapshot();
  void refusesBadValues_data();
  void refusesBadValues();

 private:
  test::AppOutcome run(const QStringList& arguments);

  QTemporaryDir dir_;
  QString run_;
  int snapshots_ = 0;
};

void AttentionVideoScriptedTest::initTestCase() {
  QVERIFY(dir_.isValid());
  run_ = dir_.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run_.toStdString(), 6));
  snapshots_ = static_cast<int>(
      QDir(QDir(run_).filePath(QStringLiteral("attention"))).entryList(QDir::Files).size());
  QCOMPARE(snapshots_, 6);
}

test::AppOutcome AttentionVideoScriptedTest::run(const QStringList& arguments) {
  return test::runOffscreenApp(arguments, dir_.path(), 120000);
}

void AttentionVideoScriptedTest::exportsAFramePerSnapshot_data() {
  QTest::addColumn<QStringList>("view");
  QTest::newRow("head") << QStringList();
  QTest::newRow("layer grid") << QStringList{QStringLiteral("--video-view"),
                                             QStringLiteral("grid")};
  QTest::newRow("cls overlay") << QStringList{QStringLiteral("--video-view"),
                                              QStringLiteral("overlay")};
}

void AttentionVideoScriptedTest::exportsAFramePerSnapshot() {
  QFETCH(QStringList, view);
  const QString gif = dir_.filePath(QStringLiteral("out %1.gif").arg(QTest::currentDataTag()));
  const test::AppOutcome outcome =
      run(QStringList{QStringLiteral("--open"), run_, QStringLiteral("--export-video"), gif,
                      QStringLiteral("--layer"), QStringLiteral("0"), QStringLiteral("--head"),
                      QStringLiteral("1"), QStringLiteral("--fps"), QStringLiteral("8")} +
          view + QStringList{QStringLiteral("--quit")});
  QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
  QVERIFY2(outcome.output.contains(QStringLiteral("%1 frames").arg(snapshots_)),
           qPrintable(outcome.output));

  int error = 0;
  GifFileType* file = DGifOpenFileName(QFile::encodeName(gif).constData(), &error);
  QVERIFY2(file != nullptr, qPrintable(gif));
  const bool slurped = DGifSlurp(file) == GIF_OK;
  const int frames = file->ImageCount;
  const QSize size(file->SWidth, file->SHeight);
  DGifCloseFile(file, &error);
  QVERIFY(slurped);
  QCOMPARE(frames, snapshots_);
  QCOMPARE(size, QSize(960, 540));
}

void AttentionVideoScriptedTest::refusesBadValues_data() {
  QTest::addColumn<QStringList>("arguments");
  QTest::addColumn<QString>("named");
  const QString gif = QStringLiteral("bad.gif");
  QTest::newRow("layer out of range") << QStringList{QStringLiteral("--export-video"), gif,
                                                     QStringLiteral("--layer"), QStringLiteral("9")}
                                      << QStringLiteral("layer 9");
  QTest::newRow("head out of range") << QStringList{QStringLiteral("--export-video"), gif,
                                                    QStringLiteral("--head"), QStringLiteral("5")}
                                     << QStringLiteral("head 5");
  QTest::newRow("unknown extension")
      << QStringList{QStringLiteral("--export-video"), QStringLiteral("bad.avi")}
      << QStringLiteral("avi");
  QTest::newRow("unwritable path")
      << QStringList{QStringLiteral("--export-video"), QStringLiteral("/proc/none/bad.gif")}
      << QStringLiteral("/proc/none");
  QTest::newRow("frame rate") << QStringList{QStringLiteral("--export-video"), gif,
                                             QStringLiteral("--fps"), QStringLiteral("0")}
                              << QStringLiteral("got 0");
  QTest::newRow("layer not a number")
      << QStringList{QStringLiteral("--export-video"), gif, QStringLiteral("--layer"),
                     QStringLiteral("two")}
      << QStringLiteral("\"two\"");
  QTest::newRow("view") << QStringList{QStringLiteral("--export-video"), gif,
                                       QStringLiteral("--video-view"), QStringLiteral("movie")}
                        << QStringLiteral("\"movie\"");
}

void AttentionVideoScriptedTest::refusesBadValues() {
  QFETCH(QStringList, arguments);
  QFETCH(QString, named);
  const test::AppOutcome outcome = run(QStringList{QStringLiteral("--open"), run_} + arguments +
                                       QStringList{QStringLiteral("--quit")});
  QVERIFY2(outcome.exit_code == 2, qPrintable(outcome.output));
  QVERIFY2(outcome.output.contains(named), qPrintable(outcome.output));
  QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("bad.gif"))));
}

}  // namespace ascope

QTEST_GUILESS_MAIN(ascope::AttentionVideoScriptedTest)
#include "attention_video_scripted_test.moc"
