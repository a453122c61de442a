// Following a run that another process trains: the real attentionscope-cli trains into a folder,
// and the window opened on that folder while it trains shows the new steps within seconds, the
// timeline grows as snapshots arrive, and when the writer ends the window says so. The window
// never writes into the folder (it is not the folder's writer: the CLI keeps its lock).
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/run_folder_follower.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/run_controller.h"
#include "engine/core/run_folder_lock.h"
#include "news_recorder.h"
#include "open_run_in_window.h"
#include "test_paths.h"
#include "widgets/curves/metric_curve_panel.h"

namespace ascope {

class FollowedRunTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void showsARunTheCliIsTraining();
};

namespace {

/// Train rows metrics.csv holds now.
int trainRows(const QString& run) {
  QFile file(run + QStringLiteral("/metrics.csv"));
  if (!file.open(QIODevice::ReadOnly)) return 0;
  return static_cast<int>(file.readAll().count(",train,"));
}

}  // namespace

void FollowedRunTest::showsARunTheCliIsTraining() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString run = dir.path() + QStringLiteral("/run");
  QProcess writer;
  writer.setProcessChannelMode(QProcess::MergedChannels);
  // Long enough to outlast the test, which stops it; a snapshot every 100 steps.
  writer.start(QString::fromUtf8(test_paths::cliProgram()),
               {QStringLiteral("train"), QStringLiteral("--task"), QStringLiteral("digits"),
                QStringLiteral("--preset"), QStringLiteral("tiny"), QStringLiteral("--steps"),
                QStringLiteral("20000"), QStringLiteral("--threads"), QStringLiteral("1"),
                QStringLiteral("--out"), run});
  QVERIFY(writer.waitForStarted());
  QTRY_VERIFY_WITH_TIMEOUT(trainRows(run) >= 5, 120000);
  QVERIFY(RunFolderLock::inspect(run.toStdString()).kind == RunFolderWriterState::Kind::kWriting);

  MainWindow window;
  test::NewsRecorder news;
  window.controller()->addReader(&news);
  test::showAndOpenRun(window, run, 60000);
  RunFolderFollower* follower = window.controller()->follower();
  QVERIFY(follower->isFollowing());
  const auto& series = window.curves()->loss()->trainSeries();
  const std::int64_t shown = series.totalAppended();
  QVERIFY(shown >= 5);
  // The folder as read at opening came as one piece of news, with every step the curve shows.
  QCOMPARE(news.count(RunNews::Source::kOpened), std::size_t{1});
  QVERIFY(news.pieces.front().opened);
  QCOMPARE(static_cast<std::int64_t>(news.steps(RunNews::Source::kOpened)), shown);
  const int snapshots = window.attention()->snapshotCount();

  // New steps within a few seconds (a poll a second), snapshots as the writer stores them.
  QTRY_VERIFY_WITH_TIMEOUT(series.totalAppended() > shown + 20, 10000);
  QTRY_VERIFY_WITH_TIMEOUT(window.attention()->snapshotCount() > snapshots, 30000);
  QVERIFY(window.attention()->isFollowingLive());

  // The writer stops (checkpoint written, lock released): the window says so and stops polling.
  qRegisterMetaType<RunFolderWriterState>();
  QSignalSpy ended(follower, &RunFolderFollower::writerEnded);
  QSignalSpy said(window.controller(), &RunController::message);
  writer.terminate();
  QVERIFY2(writer.waitForFinished(120000), qPrintable(writer.readAll()));
  QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 10000);
  QVERIFY(ended.front().front().value<RunFolderWriterState>().kind ==
          RunFolderWriterState::Kind::kNone);
  QVERIFY(!follower->isFollowing());
  // Every step the writer recorded is on the curve, once.
  QTRY_COMPARE_WITH_TIMEOUT(series.totalAppended(), static_cast<std::int64_t>(trainRows(run)),
                            5000);
  // ...and what came later came as the followed run's news, through the same readers.
  QVERIFY(news.count(RunNews::Source::kFollowed) >= 2);
  QCOMPARE(static_cast<std::int64_t>(news.steps(RunNews::Source::kOpened) +
                                     news.steps(RunNews::Source::kFollowed)),
           series.totalAppended());
  QCOMPARE(news.count(RunNews::Source::kLive), std::size_t{0});
  bool told = false;
  for (const QList<QVariant>& message : said) {
    told = told || message.front().toString().contains(QStringLiteral("has ended"));
  }
  QVERIFY2(told, "the window says that the writer has ended");
}

}  // namespace ascope

QTEST_MAIN(ascope::FollowedRunTest)
#include "followed_run_test.moc"
