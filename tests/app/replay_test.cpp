// Lecture mode's replay: bookmarks on a run's steps survive closing and reopening,
// show as markers on the curves and move the timeline when clicked or chosen; Play walks through
// every snapshot at the chosen speed and stops; "Continue training" extends a real tiny run in its
// own folder from its last step; and two runs are compared: overlaid curves named by run, the
// attention difference A − B of the same probe sample, and exactly the settings that differ.
#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/window/dialogs/run_comparison_window.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/bookmark_controller.h"
#include "app/gui/window/run/replay_actions.h"
#include "app/gui/window/run/run_controller.h"
#include "app/gui/window/scripted/app_options.h"
#include "app/gui/window/scripted/main_window_scripting.h"
#include "app/gui/window/scripted/scripted_run.h"
#include "engine/inference/read_run.h"
#include "engine/runfolder/bookmarks/bookmarks.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "fake_engine.h"
#include "open_run_in_window.h"
#include "widgets/common/heatmap_view.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/curve_bookmarks.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/curves/run_overlay_plot.h"

namespace ascope {

class ReplayTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void menusOfferReplay();
  void bookmarksSurviveReopening();
  void bookmarkMarkerAndMenuMoveTheTimeline();
  void malformedBookmarksStillOpenTheRun();
  void tooManyBookmarksAreRefusedNotDrawn();
  void playWalksEverySnapshotAndStops();
  void continueTrainingExtendsTheSameFolder();
  void comparisonShowsCurvesDifferenceAndSettings();
  void comparisonOfDifferentProbesSaysSo();
  void comparisonComesBackWhenTheRunIsReopened();
  void scriptedCompareShowsTheComparison();

 private:
  QTemporaryDir settings_dir_;
  static void showAndOpen(MainWindow& window, const QString& run) {
    test::showAndOpenRun(window, run, 10000);
    if (QTest::currentTestFailed()) return;
    replay(window)->bookmarks()->waitForIo();
  }
  static ReplayActions* replay(MainWindow& window) { return window.findChild<ReplayActions*>(); }
  /// Metrics rows for steps 1..steps whose loss depends on `scale`, and one epoch end.
  static bool writeMetrics(const QString& run, int steps, double scale) {
    Expected<MetricsCsvWriter> csv =
        MetricsCsvWriter::open(run.toStdString() + "/metrics.csv", false, 0, {});
    if (!csv.ok()) return false;
    for (int s = 1; s <= steps; ++s) {
      StepMetrics m;
      m.step = s;
      m.epoch = 1;
      m.loss = scale * std::exp(-s / 20.0) + 0.1;
      m.accuracy = 1.0 - std::exp(-s / (20.0 * scale));
      m.lr = 1e-3;
      if (!csv->append(m).ok()) return false;
    }
    EpochSummary e;
    e.epoch = 1;
    e.step = steps;
    e.val_loss = scale * 0.3;
    e.val_accuracy = 0.7;
    return csv->append(e, 1e-3).ok();
  }
  /// Runs A and B of a comparison (see writeRunB) with 30 and 25 steps of metrics.
  static bool writeComparedRuns(const QString& a, const QString& b) {
    return FakeEngine::writeRunFolder(a.toStdString(), 3) && writeRunB(a, b, false) &&
           writeMetrics(a, 30, 2.0) && writeMetrics(b, 25, 1.0);
  }
  /// Run B of a comparison: A's snapshots with every weight squared (and, when `other_probe`,
  /// another probe sample), learning rate 0.0123 and seed 99.
  static bool writeRunB(const QString& a, const QString& b, bool other_probe) {
    if (!FakeEngine::writeRunFolder(b.toStdString(), 3)) return false;
    Expected<RunFolder> folder = RunFolder::open(b.toStdString());
    if (!folder.ok()) return false;
    Expected<TrainingConfig> config = folder->readConfig();
    if (!config.ok()) return false;
    config->optimization.lr = 0.0123;
    config->seed = 99;
    if (!folder->writeConfig(*config).ok()) return false;
    for (const AttentionFileEntry& file : listAttentionFiles(a.toStdString())) {
      Expected<ProbeSet> probes = readProbeSet(file.path);
      if (!probes.ok()) return false;
      for (AttentionSnapshot& s : probes->samples) {
        if (other_probe) s.sample_index += 1;
        for (AttentionGroup& g : s.groups) {
          for (AttentionMap& m : g.maps) {
            for (float& v : m.values) v = v * v;
          }
        }
      }
      if (!folder->writeProbeSet(*probes).ok()) return false;
    }
    return true;
  }
};

void ReplayTest::menusOfferReplay() {
  MainWindow window;
  QHash<QString, QAction*> actions;
  for (QAction* action : window.findChildren<QAction*>()) actions.insert(action->text(), action);
  QVERIFY(actions.contains(QStringLiteral("&Compare with run…")));
  QVERIFY(actions.contains(QStringLiteral("&Continue training…")));
  QVERIFY(!actions.value(QStringLiteral("&Continue training…"))->isEnabled());  // no run yet
  QCOMPARE(actions.value(QStringLiteral("Add &bookmark…"))->shortcut().toString(),
           QStringLiteral("Ctrl+B"));
  // Without a run there is nothing to compare, continue or bookmark: said, not crashed.
  QVERIFY(!replay(window)->compareWith(QStringLiteral("/nonexistent")).isEmpty());
  QVERIFY(!replay(window)->continueTraining(2).isEmpty());
  QVERIFY(!replay(window)->bookmarks()->addBookmark(10, QStringLiteral("x")).isEmpty());
}

void ReplayTest::bookmarksSurviveReopening() {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 4));
  {
    MainWindow window;
    showAndOpen(window, run);
    BookmarkController* bookmarks = replay(window)->bookmarks();
    QVERIFY(bookmarks->bookmarks().empty());
    QCOMPARE(bookmarks->addBookmark(20, QStringLiteral("heads split here")), QString());
    QCOMPARE(bookmarks->addBookmark(40, QStringLiteral("last snapshot")), QString());
    bookmarks->waitForIo();
    QCOMPARE(window.curves()->lossBookmarks()->markers().size(), 2);
  }  // the window is closed
  Expected<std::vector<Bookmark>> stored = readBookmarks(run.toStdString());
  QVERIFY2(stored.ok(), stored.ok() ? "" : stored.error().c_str());
  QCOMPARE(stored->size(), std::size_t{2});

  MainWindow window;
  showAndOpen(window, run);
  BookmarkController* bookmarks = replay(window)->bookmarks();
  QCOMPARE(bookmarks->bookmarks().size(), std::size_t{2});
  QCOMPARE(bookmarks->bookmarks()[0].step, std::int64_t{20});
  QCOMPARE(QString::fromStdString(bookmarks->bookmarks()[0].note),
           QStringLiteral("heads split here"));
  for (CurveBookmarks* markers :
       {window.curves()->lossBookmarks(), window.curves()->accuracyBookmarks()}) {
    QCOMPARE(markers->markers().size(), 2);
    QCOMPARE(markers->line(0)->point1->coords().x(), 20.0);
    QCOMPARE(markers->line(1)->point1->coords().x(), 40.0);
    QVERIFY(markers->label(0)->text().contains(QStringLiteral("heads split here")));
  }
  // Removing one rewrites the file.
  bookmarks->removeBookmark(40);
  bookmarks->waitForIo();
  QCOMPARE(readBookmarks(run.toStdString())->size(), std::size_t{1});
}

void ReplayTest::bookmarkMarkerAndMenuMoveTheTimeline() {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 4));
  QVERIFY(writeMetrics(run, 40, 2.0));
  QVERIFY(writeBookmarks(run.toStdString(), {{20, "twenty"}, {30, "thirty"}}).ok());
  MainWindow window;
  showAndOpen(window, run);
  QCOMPARE(window.attention()->shownStep(), 40LL);
  // A click on the marker at step 20 of the loss curve.
  ThemedPlot* plot = window.curves()->loss()->plot();
  plot->replot();
  const QPoint at(static_cast<int>(plot->xAxis->coordToPixel(20.0)),
                  plot->axisRect()->center().y());
  QCOMPARE(window.curves()->lossBookmarks()->markerAt(at.x()), 0);
  QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, at);
  window.attention()->waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(window.attention()->shownStep(), 20LL, 5000);
  QCOMPARE(window.curves()->accuracy()->cursorStep(), 20.0);
  // The curves' readout gives that step's figures, as the live view did at step 20.
  QVERIFY2(window.curves()->loss()->readoutText().contains(QStringLiteral("step 20")),
           qPrintable(window.curves()->loss()->readoutText()));
  // The Timeline menu's list of bookmarks.
  auto* menu = window.findChild<QMenu*>(QStringLiteral("bookmarkMenu"));
  QVERIFY(menu);
  Q_EMIT menu->aboutToShow();
  QAction* thirty = nullptr;
  for (QAction* action : menu->actions()) {
    if (action->text().startsWith(QStringLiteral("Step 30"))) thirty = action;
  }
  QVERIFY(thirty);
  QVERIFY(thirty->text().contains(QStringLiteral("thirty")));
  thirty->trigger();
  window.attention()->waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(window.attention()->shownStep(), 30LL, 5000);
}

void ReplayTest::malformedBookmarksStillOpenTheRun() {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 2));
  const QByteArray broken("{\"bookmarks\": [\n  {\"step\": 10,,}\n]}\n");
  {
    QFile file(QString::fromStdString(bookmarksPath(run.toStdString())));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(broken);
  }
  MainWindow window;
  showAndOpen(window, run);
  QCOMPARE(window.attention()->snapshotCount(), 2);  // the run is there
  BookmarkController* bookmarks = replay(window)->bookmarks();
  QVERIFY2(bookmarks->readError().contains(QStringLiteral("bookmarks.json")),
           qPrintable(bookmarks->readError()));
  QVERIFY2(bookmarks->readError().contains(QStringLiteral("line 2")),
           qPrintable(bookmarks->readError()));
  QVERIFY(bookmarks->bookmarks().empty());
  // The user's file is not overwritten by a new bookmark.
  QVERIFY(!bookmarks->addBookmark(20, QStringLiteral("x")).isEmpty());
  bookmarks->waitForIo();
  QFile file(QString::fromStdString(bookmarksPath(run.toStdString())));
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.readAll(), broken);
}

void ReplayTest::tooManyBookmarksAreRefusedNotDrawn() {
  // 100,000 bookmarks froze the window for 40 s drawing markers, and a scripted run ended with
  // "the trainer … did not stop within 10 s".
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 2));
  QByteArray many("{\"bookmarks\": [");
  for (int i = 0; i < 100000; ++i)
    many += (i ? ",{\"step\":" : "{\"step\":") + QByteArray::number(i) + "}";
  many += "]}";
  {
    QFile file(QString::fromStdString(bookmarksPath(run.toStdString())));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(many);
  }
  MainWindow window;
  showAndOpen(window, run);
  BookmarkController* bookmarks = replay(window)->bookmarks();
  QVERIFY2(bookmarks->readError().contains(
               QStringLiteral("100000 bookmarks, more than the 1000 a run keeps")),
           qPrintable(bookmarks->readError()));
  QVERIFY(bookmarks->bookmarks().empty());           // none drawn
  QCOMPARE(window.attention()->snapshotCount(), 2);  // the run is there
}

void ReplayTest::playWalksEverySnapshotAndStops() {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 5));
  MainWindow window;
  showAndOpen(window, run);
  AttentionPresenter* timeline = window.attention();
  const int normal = timeline->playInterval();
  timeline->setPlaySpeed(4.0);
  QCOMPARE(timeline->playInterval(), normal / 4);
  QSignalSpy shown(timeline, &AttentionPresenter::stepShown);
  timeline->setPlaying(true);  // at the end: from the first snapshot
  QVERIFY(timeline->isPlaying());
  QVERIFY(timeline->playButton()->isChecked());
  QTRY_VERIFY_WITH_TIMEOUT(!timeline->isPlaying(), 10000);
  timeline->waitForLoad();
  QList<long long> steps;
  for (const QList<QVariant>& args : shown) steps.push_back(args.at(0).toLongLong());
  QCOMPARE(steps, (QList<long long>{10, 20, 30, 40, 50}));
  QCOMPARE(timeline->shownStep(), 50LL);
  QVERIFY(!timeline->playButton()->isChecked());
}

void ReplayTest::continueTrainingExtendsTheSameFolder() {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("run"));
  Expected<TrainingConfig> config = makePreset(kSentimentTaskId, "tiny");
  QVERIFY(config.ok());
  config->epochs = 1;
  config->out_dir = run.toStdString();
  std::int64_t first_steps = 0;
  // The same run trained for three epochs in one go: what the continued run must repeat exactly
  // (as `attentionscope-cli train --resume` does).
  const QString straight = dir.filePath(QStringLiteral("straight"));
  {
    MainWindow window;
    QSignalSpy ended(window.bridge(), &EngineBridge::runEnded);
    QCOMPARE(window.bridge()->startTraining(*config), QString());
    QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 60000);
    Expected<OpenedRun> trained = readRun(run.toStdString());
    QVERIFY(trained.ok());
    first_steps = trained->steps.back().step;
    TrainingConfig three = *config;
    three.epochs = 3;
    three.out_dir = straight.toStdString();
    QCOMPARE(window.bridge()->startTraining(three), QString());
    QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 2, 60000);
  }
  QVERIFY(first_steps > 0);
  MainWindow window;
  showAndOpen(window, run);
  QVERIFY(replay(window)
              ->bookmarks()
              ->addBookmark(first_steps, QStringLiteral("end of epoch 1"))
              .isEmpty());
  QSignalSpy ended(window.bridge(), &EngineBridge::runEnded);
  QCOMPARE(replay(window)->continueTraining(3), QString());
  QCOMPARE(window.currentRun()->folder().isEmpty() ? run : window.currentRun()->folder(), run);
  QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 60000);
  QCOMPARE(window.currentRun()->folder(), run);
  // The same folder, three epochs now, steps 1..3·first without a gap or a repeat.
  Expected<OpenedRun> extended = readRun(run.toStdString());
  QVERIFY2(extended.ok(), extended.ok() ? "" : extended.error().c_str());
  QCOMPARE(extended->config.epochs, 3);
  QCOMPARE(extended->steps.size(), static_cast<std::size_t>(3 * first_steps));
  for (std::size_t i = 0; i < extended->steps.size(); ++i) {
    QCOMPARE(extended->steps[i].step, static_cast<std::int64_t>(i + 1));
  }
  QCOMPARE(extended->epochs.size(), std::size_t{3});
  Expected<OpenedRun> reference = readRun(straight.toStdString());
  QVERIFY(reference.ok());
  QCOMPARE(reference->steps.size(), extended->steps.size());
  for (std::size_t i = 0; i < extended->steps.size(); ++i) {
    QCOMPARE(extended->steps[i].loss, reference->steps[i].loss);
  }
  // The curves kept the first epoch and go on from there; the bookmark is still there.
  const MetricCurvePanel* loss = window.curves()->loss();
  QCOMPARE(loss->trainSeries().first().x, 1.0);
  QCOMPARE(loss->trainSeries().last().x, static_cast<double>(3 * first_steps));
  QCOMPARE(loss->trainSeries().size(), static_cast<int>(3 * first_steps));
  replay(window)->bookmarks()->waitForIo();
  QCOMPARE(replay(window)->bookmarks()->bookmarks().size(), std::size_t{1});
}

void ReplayTest::comparisonShowsCurvesDifferenceAndSettings() {
  QTemporaryDir dir;
  const QString a = dir.filePath(QStringLiteral("run_a"));
  const QString b = dir.filePath(QStringLiteral("run_b"));
  QVERIFY(writeComparedRuns(a, b));
  // Compared twice, the second time in a new window: the same picture both times.
  QStringList first_keys;
  std::vector<float> first_difference;
  for (int round = 0; round < 2; ++round) {
    MainWindow window;
    showAndOpen(window, a);
    QCOMPARE(replay(window)->compareWith(b), QString());
    RunComparisonWindow* compare = replay(window)->comparisonWindow();
    QVERIFY(compare);
    compare->waitForLoad();
    QCOMPARE(compare->data().error, QString());
    // Curves: one graph per run (and per run's validation), named by the runs' folders.
    RunOverlayPlot* loss = compare->lossPlot();
    QVERIFY(loss->graphCount() >= 2);
    QVERIFY(loss->graph(0)->name().contains(QStringLiteral("run_a")));
    QVERIFY(loss->graph(1)->name().contains(QStringLiteral("run_b")));
    QCOMPARE(loss->graph(0)->data()->size(), 30);
    QCOMPARE(loss->graph(1)->data()->size(), 25);
    QVERIFY(loss->plot()->legend->visible());
    QCOMPARE(compare->accuracyPlot()->graph(1)->data()->size(), 25);
    // Settings: exactly the keys that differ.
    QTableWidget* table = compare->settingsTable();
    QStringList keys;
    for (int r = 0; r < table->rowCount(); ++r) keys << table->item(r, 0)->text();
    QCOMPARE(keys, (QStringList{QStringLiteral("optimization.lr"), QStringLiteral("seed")}));
    QCOMPARE(table->item(0, 2)->text(), QStringLiteral("0.0123"));
    // Attention at step 20, layer 1 head 0: A − B cell by cell (B holds A², stored as float16).
    compare->showStep(20);
    compare->waitForLoad();
    compare->setHead(0, 1, 0);
    QCOMPARE(compare->shownStep().step, 20LL);
    QVERIFY2(compare->problemLabel()->text().contains(QStringLiteral("Red")),
             qPrintable(compare->problemLabel()->text()));
    const auto stored = [](const QString& run, int index) {
      return *readProbeSet(listAttentionFiles(run.toStdString())[index].path);
    };
    const AttentionMap head_a = stored(a, 1).samples.front().groups.front().map(1, 0);
    const AttentionMap head_b = stored(b, 1).samples.front().groups.front().map(1, 0);
    const LabeledMatrix& difference = compare->differenceMap()->matrix();
    QCOMPARE(difference.rows, head_a.rows);
    QCOMPARE(difference.cols, head_a.cols);
    bool any_nonzero = false;
    for (std::size_t i = 0; i < head_a.values.size(); ++i) {
      QVERIFY(std::abs(head_b.values[i] - head_a.values[i] * head_a.values[i]) < 2e-3f);
      QCOMPARE(difference.values[i], head_a.values[i] - head_b.values[i]);
      any_nonzero = any_nonzero || difference.values[i] != 0.0f;
    }
    QVERIFY(any_nonzero);
    // The scale: the largest |A − B| over every step, layer and head, symmetric around 0.
    double largest = 0;
    for (int index = 0; index < 3; ++index) {
      const AttentionGroup ga = stored(a, index).samples.front().groups.front();
      const AttentionGroup gb = stored(b, index).samples.front().groups.front();
      for (std::size_t m = 0; m < ga.maps.size(); ++m) {
        for (std::size_t i = 0; i < ga.maps[m].values.size(); ++i) {
          largest = std::max(largest,
                             std::abs(double(ga.maps[m].values[i]) - double(gb.maps[m].values[i])));
        }
      }
    }
    const QCPRange range = compare->differenceMap()->colorMap()->dataRange();
    QCOMPARE(range.lower, -range.upper);
    // Another head keeps the same scale.
    compare->setHead(0, 0, 1);
    QVERIFY(std::abs(compare->differenceScale() - largest) < 1e-6);
    compare->setHead(0, 1, 0);
    if (round == 0) {
      first_keys = keys;
      first_difference = difference.values;
    } else {
      QCOMPARE(keys, first_keys);
      QVERIFY(difference.values == first_difference);
      // It fits the screen (it opened at 1600 x 1000 on a 1280 x 720 projector, the A - B map
      // and the close button off screen), and Esc closes it.
      const QRect screen = compare->screen()->availableGeometry();
      QVERIFY2(screen.contains(compare->frameGeometry()),
               qPrintable(QStringLiteral("%1x%2 on %3x%4")
                              .arg(compare->frameGeometry().width())
                              .arg(compare->frameGeometry().height())
                              .arg(screen.width())
                              .arg(screen.height())));
      QTest::keyClick(compare, Qt::Key_Escape);
      QTRY_VERIFY(!replay(window)->comparisonWindow());
    }
  }
}

void ReplayTest::initTestCase() {
  // Settings in a private file, never the user's own.
  QVERIFY(settings_dir_.isValid());
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir_.path());
}

void ReplayTest::comparisonComesBackWhenTheRunIsReopened() {
  QTemporaryDir dir;
  const QString a = dir.filePath(QStringLiteral("run_a"));
  const QString b = dir.filePath(QStringLiteral("run_b"));
  QVERIFY(writeComparedRuns(a, b));
  const auto settingKeys = [](RunComparisonWindow* compare) {
    QStringList keys;
    for (int r = 0; r < compare->settingsTable()->rowCount(); ++r)
      keys << compare->settingsTable()->item(r, 0)->text();
    return keys;
  };
  {
    MainWindow window;
    replay(window)->setRemembersComparisons(true);
    showAndOpen(window, a);
    QCOMPARE(replay(window)->compareWith(b), QString());
    replay(window)->comparisonWindow()->waitForLoad();
  }  // the program ends with the comparison open
  {
    MainWindow window;
    replay(window)->setRemembersComparisons(true);
    showAndOpen(window, a);
    RunComparisonWindow* compare = replay(window)->comparisonWindow();
    QVERIFY2(compare, "the comparison did not come back with its run");
    QVERIFY(compare->isVisible());
    compare->waitForLoad();
    QCOMPARE(compare->data().error, QString());
    QVERIFY(compare->lossPlot()->graph(1)->name().contains(QStringLiteral("run_b")));
    QCOMPARE(settingKeys(compare),
             (QStringList{QStringLiteral("optimization.lr"), QStringLiteral("seed")}));
    // Closed by the user, it is forgotten.
    compare->close();
    QTRY_VERIFY(!replay(window)->comparisonWindow());
  }
  {
    MainWindow window;
    replay(window)->setRemembersComparisons(true);
    showAndOpen(window, a);
    QVERIFY(!replay(window)->comparisonWindow());
  }
  // Tests and scripted runs (not remembering) neither bring one back nor store one.
  {
    MainWindow window;
    showAndOpen(window, a);
    QCOMPARE(replay(window)->compareWith(b), QString());
    replay(window)->comparisonWindow()->waitForLoad();
  }
  {
    MainWindow window;
    replay(window)->setRemembersComparisons(true);
    showAndOpen(window, a);
    QVERIFY(!replay(window)->comparisonWindow());
  }
}

void ReplayTest::comparisonOfDifferentProbesSaysSo() {
  QTemporaryDir dir;
  const QString a = dir.filePath(QStringLiteral("run_a"));
  const QString b = dir.filePath(QStringLiteral("run_b"));
  QVERIFY(FakeEngine::writeRunFolder(a.toStdString(), 3));
  QVERIFY(writeRunB(a, b, true));
  RunComparisonWindow compare;
  compare.compare(a, b);
  compare.waitForLoad();
  QVERIFY2(compare.problemLabel()->text().contains(QStringLiteral("different samples")),
           qPrintable(compare.problemLabel()->text()));
  QVERIFY(!compare.differenceMap()->matrix().isValid());
  // Both runs' own attention is still shown.
  QVERIFY(compare.mapA()->matrix().isValid());
  QVERIFY(compare.mapB()->matrix().isValid());
  // A folder that holds no run: said, with its name.
  QSignalSpy failed(&compare, &RunComparisonWindow::failed);
  compare.compare(a, dir.filePath(QStringLiteral("no_run")));
  compare.waitForLoad();
  QCOMPARE(failed.size(), 1);
  QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("no_run")),
           qPrintable(failed.at(0).at(0).toString()));
}

void ReplayTest::scriptedCompareShowsTheComparison() {
  QTemporaryDir dir;
  const QString a = dir.filePath(QStringLiteral("run_a"));
  const QString b = dir.filePath(QStringLiteral("run_b"));
  QVERIFY(FakeEngine::writeRunFolder(a.toStdString(), 3));
  QVERIFY(writeRunB(a, b, false));
  const QString shot = dir.filePath(QStringLiteral("compare.png"));
  QString error;
  bool help = false;
  std::optional<AppOptions> options =
      AppOptions::parse({QStringLiteral("attentionscope"), QStringLiteral("--open"), a,
                         QStringLiteral("--compare"), b, QStringLiteral("--screenshot"), shot,
                         QStringLiteral("--size"), QStringLiteral("1200x800")},
                        &error, &help);
  QVERIFY2(options, qPrintable(error));
  QCOMPARE(options->compare_dir, b);
  // --compare alone has no run A.
  QVERIFY(!AppOptions::parse({QStringLiteral("attentionscope"), QStringLiteral("--compare"), b},
                             &error, &help));
  QVERIFY(error.contains(QStringLiteral("--open")));
  MainWindow window;
  window.resize(options->size);
  window.show();
  MainWindowScripting scripting(&window);
  ScriptedRun script(&scripting, *options);
  QSignalSpy finished(&script, &ScriptedRun::finished);
  script.begin();
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
  QCOMPARE(finished.at(0).at(0).toInt(), 0);
  RunComparisonWindow* compare = replay(window)->comparisonWindow();
  QVERIFY(compare);
  QCOMPARE(compare->settingsTable()->rowCount(), 2);
  const QImage image(shot);
  QCOMPARE(image.size(), compare->size() * compare->devicePixelRatio());
}

}  // namespace ascope

QTEST_MAIN(ascope::ReplayTest)
#include "replay_test.moc"
