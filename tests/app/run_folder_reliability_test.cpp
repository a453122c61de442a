// The window's rows of the fourth reliability audit, offscreen: the window reads a run folder as
// carefully as the trainer writes it. A model setting of the wrong JSON type is refused with its
// file and setting (it aborted the window, at every start when remembered); a log.txt linked to
// a file elsewhere is named, never shown; damaged snapshots are left out with a note while every
// readable one stays on the timeline, and exports say what they left out; a run's data is read by
// an ablation only once named or confirmed; a followed folder that disappears is called gone; and
// the scripted outputs refuse a FIFO before any work instead of blocking for ever.
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/heads/heads_presenter.h"
#include "app/gui/views/log/log_presenter.h"
#include "app/gui/window/export/export_actions.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/run_controller.h"
#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/run_folder.h"
#include "fake_engine.h"
#include "offscreen_app.h"
#include "open_run_in_window.h"
#include "tests/data/fifo_fixture.h"
#include "widgets/common/log_panel.h"
#include "widgets/tables/head_ablation_table.h"

namespace ascope {

namespace fs = std::filesystem;

class RunFolderReliabilityTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void wrongTypedModelSettingIsRefusedNotACrash();
  void linkedLogIsNamedNotShown();
  void damagedSnapshotsAreLeftOutAndTheRestStays();
  void exportSaysWhatItLeftOut();
  void ablationReadsAnOpenedRunsDataOnlyOnceConfirmed();
  void followedRunWhoseFolderIsDeletedIsGone();
  void scriptedWrongTypedRunEndsWithAMessageNotAnAbort();
  void scriptedScreenshotIntoAFifoIsRefusedAtOnce();
  void scriptedAblateOfARunWithDataNeedsTheDataNamed();
  void scriptedAblateThatDoesNotFinishIsAFailure();
  void symlinkedSnapshotIsNamedNotPassedOver();
  void scriptedAblateOfARunAnotherProcessTrainsIsRefused();
  void scriptedScreenshotIntoTheRunFolderIsRefusedBeforeTheFileExists();

 private:
  /// A fresh stored run (vit, three snapshots at steps 10, 20, 30) named `name`.
  QString freshRun(const QString& name);
  /// Rewrites `run`'s config.json with `edit` applied.
  static void editConfig(const QString& run, const std::function<void(nlohmann::json&)>& edit);
  static QString snapshot(const QString& run, int step);

  QTemporaryDir dir_;
};

void RunFolderReliabilityTest::initTestCase() {
  QVERIFY(dir_.isValid());
}

QString RunFolderReliabilityTest::freshRun(const QString& name) {
  const QString run = dir_.filePath(name);
  fs::remove_all(run.toStdString());
  if (!FakeEngine::writeRunFolder(run.toStdString(), 3)) return {};
  return run;
}

void RunFolderReliabilityTest::editConfig(const QString& run,
                                          const std::function<void(nlohmann::json&)>& edit) {
  const std::string path = run.toStdString() + "/config.json";
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  nlohmann::json config = nlohmann::json::parse(text.str());
  edit(config);
  std::ofstream(path, std::ios::trunc) << config.dump();
}

QString RunFolderReliabilityTest::snapshot(const QString& run, int step) {
  return QString::fromStdString(RunFolder::open(run.toStdString())->attentionPath(step));
}

void RunFolderReliabilityTest::wrongTypedModelSettingIsRefusedNotACrash() {
  const std::vector<std::tuple<const char*, nlohmann::json, const char*>> cases = {
      {"layers", "4", "\"4\""},
      {"dropout", "0.1", "\"0.1\""},
      {"hidden", nlohmann::json::object(), "{}"}};
  for (const auto& [field, value, shown] : cases) {
    const QString run = freshRun(QStringLiteral("wrong_type_%1").arg(QLatin1String(field)));
    QVERIFY(!run.isEmpty());
    editConfig(run, [&, f = field, v = value](nlohmann::json& c) { c["vit"][f] = v; });
    MainWindow window;
    window.show();
    QSignalSpy failed(window.controller(), &RunController::openFailed);
    window.controller()->openRun(run);
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 5000);
    const QString message = failed.at(0).at(0).toString();
    QVERIFY2(message.contains(run + QStringLiteral("/config.json")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("\"vit.%1\"").arg(QLatin1String(field))) &&
                 message.contains(QLatin1String(shown)),
             qPrintable(message));
    QVERIFY(window.currentRun()->folder().isEmpty());  // nothing half shown; the window goes on
  }
}

void RunFolderReliabilityTest::linkedLogIsNamedNotShown() {
  const QString run = freshRun(QStringLiteral("linked_log"));
  QVERIFY(!run.isEmpty());
  const QString secret = dir_.filePath(QStringLiteral("passwd"));
  std::ofstream(secret.toStdString()) << "root:x:0:0:a secret line on the projector\n";
  fs::create_symlink(secret.toStdString(), run.toStdString() + "/log.txt");
  MainWindow window;
  test::showAndOpenRun(window, run);
  const QString shown = window.log()->panel()->view()->toPlainText();
  QVERIFY2(!shown.contains(QStringLiteral("secret line")), qPrintable(shown));
  QVERIFY2(shown.contains(run + QStringLiteral("/log.txt is a symbolic link")), qPrintable(shown));
}

void RunFolderReliabilityTest::damagedSnapshotsAreLeftOutAndTheRestStays() {
  const QString run = freshRun(QStringLiteral("damaged"));
  QVERIFY(!run.isEmpty());
  std::ofstream(snapshot(run, 30).toStdString(), std::ios::trunc) << "damaged";
  MainWindow window;
  test::showAndOpenRun(window, run);
  AttentionPresenter* timeline = window.attention();
  QCOMPARE(timeline->snapshotCount(), 2);  // 151 good ones were hidden by one bad newest
  QCOMPARE(timeline->shownStep(), 20LL);
  // A snapshot damaged after the run was opened: left out when asked for, its neighbour shown.
  std::ofstream(snapshot(run, 10).toStdString(), std::ios::trunc) << "damaged too";
  QSignalSpy left_out(timeline, &AttentionPresenter::snapshotLeftOut);
  timeline->showStep(10);
  timeline->waitForLoad();
  QCOMPARE(left_out.size(), 1);
  QVERIFY2(left_out.at(0).at(0).toString().contains(snapshot(run, 10)),
           qPrintable(left_out.at(0).at(0).toString()));
  QCOMPARE(timeline->snapshotCount(), 1);
  QCOMPARE(timeline->shownStep(), 20LL);  // never "step -1"
  const QString log = window.log()->panel()->view()->toPlainText();
  QVERIFY2(log.contains(QStringLiteral("attention snapshot left out: ") + snapshot(run, 30)),
           qPrintable(log));
}

void RunFolderReliabilityTest::exportSaysWhatItLeftOut() {
  const QString run = freshRun(QStringLiteral("all_damaged"));
  QVERIFY(!run.isEmpty());
  for (int step : {10, 20, 30}) {
    std::ofstream(snapshot(run, step).toStdString(), std::ios::trunc) << "damaged";
  }
  MainWindow window;
  test::showAndOpenRun(window, run);
  QCOMPARE(window.attention()->snapshotCount(), 0);
  const QStringList left_out = window.exporter()->leftOut();
  QVERIFY2(left_out.join(QLatin1Char('|')).contains(QStringLiteral("the attention")),
           qPrintable(left_out.join(QLatin1Char('|'))));
  const QString good = freshRun(QStringLiteral("all_good"));
  MainWindow other;
  test::showAndOpenRun(other, good);
  QVERIFY2(
      !other.exporter()->leftOut().join(QLatin1Char('|')).contains(QStringLiteral("attention")),
      qPrintable(other.exporter()->leftOut().join(QLatin1Char('|'))));
}

void RunFolderReliabilityTest::ablationReadsAnOpenedRunsDataOnlyOnceConfirmed() {
  const QString run = freshRun(QStringLiteral("secret_data"));
  QVERIFY(!run.isEmpty());
  // Were it read, the FIFO would block the ablation's worker (freed after 3 s by the fixture).
  testing::Fifo secret(dir_.filePath(QStringLiteral("secret")).toStdString());
  QVERIFY(secret.created());
  editConfig(run, [&](nlohmann::json& c) { c["data"] = secret.path(); });
  MainWindow window;
  test::showAndOpenRun(window, run);
  HeadAblationTable* table = window.headAnalysis()->ablation();
  table->runButton()->click();
  QVERIFY(!table->isRunning());
  QVERIFY2(table->messageLabel()->text().contains(QStringLiteral("names its data")),
           qPrintable(table->messageLabel()->text()));
  QString asked;
  window.headAnalysis()->setDataConfirmation([&asked](const QString& paths) {
    asked = paths;
    return false;
  });
  table->runButton()->click();
  QCOMPARE(asked, QString::fromStdString(secret.path()));
  QVERIFY(!table->isRunning());  // declined: nothing read
}

void RunFolderReliabilityTest::followedRunWhoseFolderIsDeletedIsGone() {
  const QString run = freshRun(QStringLiteral("followed"));
  QVERIFY(!run.isEmpty());
  std::optional<RunFolderLock> writer;
  {
    Expected<RunFolderLock> lock = RunFolderLock::acquire(run.toStdString());
    QVERIFY2(lock.ok(), lock.ok() ? "" : lock.error().c_str());
    writer.emplace(std::move(*lock));
  }
  MainWindow window;
  QSignalSpy messages(window.controller(), &RunController::message);
  test::showAndOpenRun(window, run);
  fs::remove_all(run.toStdString());
  QTRY_VERIFY_WITH_TIMEOUT(
      [&] {
        for (const QList<QVariant>& m : messages) {
          if (m.at(0).toString().contains(QStringLiteral("the run folder is gone"))) return true;
        }
        return false;
      }(),
      5000);
  for (const QList<QVariant>& m : messages) {
    QVERIFY2(!m.at(0).toString().contains(QStringLiteral("has ended")),
             qPrintable(m.at(0).toString()));
  }
}

void RunFolderReliabilityTest::scriptedWrongTypedRunEndsWithAMessageNotAnAbort() {
  const QString run = freshRun(QStringLiteral("scripted_wrong_type"));
  QVERIFY(!run.isEmpty());
  editConfig(run, [](nlohmann::json& c) { c["vit"]["layers"] = "4"; });
  const test::AppOutcome o = test::runOffscreenApp(
      {QStringLiteral("--open"), run, QStringLiteral("--quit")}, dir_.path(), 60000);
  QCOMPARE(o.exit_code, 1);  // an abort was 134
  QVERIFY2(o.output.contains(QStringLiteral("\"vit.layers\" must be a whole number, got \"4\"")),
           qPrintable(o.output));
}

void RunFolderReliabilityTest::scriptedScreenshotIntoAFifoIsRefusedAtOnce() {
  const QString run = freshRun(QStringLiteral("screenshot_fifo"));
  QVERIFY(!run.isEmpty());
  testing::Fifo fifo(dir_.filePath(QStringLiteral("shot.png")).toStdString(),
                     std::chrono::milliseconds(60000));
  QVERIFY(fifo.created());
  QElapsedTimer clock;
  clock.start();
  const test::AppOutcome o =
      test::runOffscreenApp({QStringLiteral("--open"), run, QStringLiteral("--screenshot"),
                             QString::fromStdString(fifo.path()), QStringLiteral("--timeout"),
                             QStringLiteral("10"), QStringLiteral("--quit")},
                            dir_.path(), 40000);
  QCOMPARE(o.exit_code, 2);  // blocked for ever before
  QVERIFY2(
      o.output.contains(QStringLiteral("--screenshot: ") + QString::fromStdString(fifo.path()) +
                        QStringLiteral(" is a FIFO, not a file")),
      qPrintable(o.output));
  QVERIFY(clock.elapsed() < 30000);
  QVERIFY(QFileInfo(QString::fromStdString(fifo.path())).exists());
}

void RunFolderReliabilityTest::scriptedAblateOfARunWithDataNeedsTheDataNamed() {
  const QString run = freshRun(QStringLiteral("scripted_ablate"));
  QVERIFY(!run.isEmpty());
  const QString secret = dir_.filePath(QStringLiteral("scripted_secret.csv"));
  std::ofstream(secret.toStdString()) << "root:x:0:0:a secret line\n";
  editConfig(run, [&](nlohmann::json& c) { c["data"] = secret.toStdString(); });
  const test::AppOutcome o =
      test::runOffscreenApp({QStringLiteral("--open"), run, QStringLiteral("--ablate"),
                             QStringLiteral("16"), QStringLiteral("--quit")},
                            dir_.path(), 60000);
  QCOMPARE(o.exit_code, 2);
  QVERIFY2(o.output.contains(QStringLiteral("names its data")), qPrintable(o.output));
  QVERIFY2(!o.output.contains(QStringLiteral("secret line")), qPrintable(o.output));
}

void RunFolderReliabilityTest::scriptedAblateThatDoesNotFinishIsAFailure() {
  // An ablation that ends without a table (here: no checkpoint to ablate; a reopened followed run
  // cancels one the same way) made the scripted run exit 0.
  const QString run = freshRun(QStringLiteral("scripted_ablate_fails"));
  QVERIFY(!run.isEmpty());
  const test::AppOutcome o =
      test::runOffscreenApp({QStringLiteral("--open"), run, QStringLiteral("--ablate"),
                             QStringLiteral("16"), QStringLiteral("--quit")},
                            dir_.path(), 60000);
  QCOMPARE(o.exit_code, 1);
  QVERIFY2(
      o.output.contains(QStringLiteral("--ablate: the ablation did not finish: no checkpoint")),
      qPrintable(o.output));
}

void RunFolderReliabilityTest::symlinkedSnapshotIsNamedNotPassedOver() {
  const QString run = freshRun(QStringLiteral("linked_snapshot"));
  QVERIFY(!run.isEmpty());
  const std::string linked = snapshot(run, 30).toStdString();
  const std::string elsewhere = dir_.filePath(QStringLiteral("elsewhere.msgpack")).toStdString();
  fs::rename(linked, elsewhere);
  fs::create_symlink(elsewhere, linked);
  MainWindow window;
  test::showAndOpenRun(window, run);
  QCOMPARE(window.attention()->snapshotCount(), 2);
  const QString log = window.log()->panel()->view()->toPlainText();
  QVERIFY2(log.contains(QStringLiteral("attention snapshot left out: ") +
                        QString::fromStdString(linked)),
           qPrintable(log));
  QVERIFY2(log.contains(QStringLiteral("symbolic link")), qPrintable(log));
}

void RunFolderReliabilityTest::scriptedAblateOfARunAnotherProcessTrainsIsRefused() {
  // This test process holds the run's lock as a trainer would; the window is another process.
  const QString run = freshRun(QStringLiteral("scripted_ablate_locked"));
  QVERIFY(!run.isEmpty());
  Expected<RunFolderLock> lock = RunFolderLock::acquire(run.toStdString());
  QVERIFY2(lock.ok(), lock.ok() ? "" : lock.error().c_str());
  const test::AppOutcome o =
      test::runOffscreenApp({QStringLiteral("--open"), run, QStringLiteral("--ablate"),
                             QStringLiteral("16"), QStringLiteral("--quit")},
                            dir_.path(), 60000);
  QCOMPARE(o.exit_code, 1);
  QVERIFY2(o.output.contains(
               QStringLiteral("is in use by pid %1").arg(QCoreApplication::applicationPid())),
           qPrintable(o.output));
  QVERIFY(!QFileInfo::exists(run + QStringLiteral("/ablation.csv")));
}

void RunFolderReliabilityTest::scriptedScreenshotIntoTheRunFolderIsRefusedBeforeTheFileExists() {
  // bookmarks.json does not exist yet: a PNG written there would later be refused as bookmarks.
  const QString run = freshRun(QStringLiteral("screenshot_bookmarks"));
  QVERIFY(!run.isEmpty());
  const QString target = run + QStringLiteral("/bookmarks.json");
  const test::AppOutcome o =
      test::runOffscreenApp({QStringLiteral("--open"), run, QStringLiteral("--screenshot"), target,
                             QStringLiteral("--quit")},
                            dir_.path(), 60000);
  QCOMPARE(o.exit_code, 2);
  QVERIFY2(o.output.contains(QStringLiteral("--screenshot: ") + target), qPrintable(o.output));
  QVERIFY(!QFileInfo::exists(target));
}

}  // namespace ascope

QTEST_MAIN(ascope::RunFolderReliabilityTest)
#include "run_folder_reliability_test.moc"
