// The Attention dock's timeline: it lists a run's stored snapshots, follows live probes, and
// dragging back loads an earlier snapshot from disk off the GUI thread (newest request wins).
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <random>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/attention/timeline/attention_timeline.h"
#include "engine/analysis/head_maxima.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/run_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "fake_engine.h"
#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_head_grid_panel.h"

namespace ascope {

class AttentionTimelineTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void listsStoredSnapshots();
  void scrubbingLoadsEarlierSnapshots();
  void liveSnapshotsWaitWhileScrubbedBack();
  void listingDoesNotBlockTheGuiThread();
  void showStepPicksTheNearestSnapshotAndAnnouncesItsSample();
  void stepByMovesAlongTheTimeline();
  void playAnimatesToTheEndThenStops();
  void askedInputReplacesTheRunUntilBack();
  void largeLiveProbesAreConvertedOffTheGuiThread();
  void timelineWorksWithoutAView();
  void runScaleTakenFromStoredSnapshotsIsTheScreensRule();
};

namespace {

ProbeSet asProbeSet(AttentionSnapshot s) {
  ProbeSet probes;
  probes.step = s.step;
  probes.samples.push_back(std::move(s));
  return probes;
}

/// A probe of `tokens` × `tokens` weights in each of `heads` heads of one layer.
ProbeSet bigSnapshot(long long step, int tokens, int heads) {
  AttentionSnapshot s;
  s.step = step;
  s.task = kSentimentTaskId;
  AttentionGroup g;
  g.name = "encoder";
  g.layers = 1;
  g.heads = heads;
  for (int h = 0; h < heads; ++h) {
    g.maps.push_back(
        {tokens, tokens, std::vector<float>(std::size_t(tokens) * tokens, 1.0f / tokens)});
  }
  s.groups.push_back(g);
  return asProbeSet(std::move(s));
}

ProbeSet liveSnapshot(long long step) {
  AttentionSnapshot s;
  s.step = step;
  s.task = kSentimentTaskId;
  AttentionGroup g;
  g.name = "encoder";
  g.layers = g.heads = 1;
  g.maps.push_back({3, 3, std::vector<float>(9, 1.0f / 3)});
  s.groups.push_back(g);
  return asProbeSet(std::move(s));
}

/// The run folder `dir` as an opened run shows it.
void showFolder(CurrentRun& run, const QString& dir) {
  run.showOpened(*makePreset(kImageClassificationTaskId, "tiny"), dir);
}

/// A timeline showing an opened run folder of `count` snapshots (steps 10, 20, …), listed.
struct OpenedTimeline {
  explicit OpenedTimeline(int count) {
    written = FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), count);
    showFolder(run, dir.filePath("run"));
    view.waitForLoad();
  }
  QTemporaryDir dir;
  CurrentRun run;
  AttentionPresenter view{&run};
  bool written = false;
};

}  // namespace

void AttentionTimelineTest::listsStoredSnapshots() {
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), 4));
  const std::vector<AttentionFileEntry> files =
      listAttentionFiles(dir.filePath("run").toStdString());
  QCOMPARE(files.size(), std::size_t(4));
  QCOMPARE(files.front().step, std::int64_t{10});
  QCOMPARE(files.back().step, std::int64_t{40});
  Expected<ProbeSet> snapshot = readProbeSet(files[1].path);
  QVERIFY(snapshot.ok());
  QCOMPARE(snapshot->step, std::int64_t{20});
  QCOMPARE(snapshot->samples.at(0).groups.size(), std::size_t(1));
}

void AttentionTimelineTest::scrubbingLoadsEarlierSnapshots() {
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), 5));
  CurrentRun run;
  AttentionPresenter view(&run);
  view.resize(900, 600);
  view.show();
  showFolder(run, dir.filePath("run"));
  view.waitForLoad();
  QCOMPARE(view.snapshotCount(), 5);
  QCOMPARE(view.slider()->maximum(), 4);
  // Several requests in a row: intermediate ones may be skipped, the last one is shown.
  view.slider()->setValue(3);
  view.slider()->setValue(2);
  view.slider()->setValue(1);
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.panel()->snapshot().step, 20LL, 2000);
  QVERIFY(!view.isFollowingLive());
  QVERIFY(view.panel()->snapshot().image.isValid());  // the probe image came along
}

void AttentionTimelineTest::liveSnapshotsWaitWhileScrubbedBack() {
  OpenedTimeline opened(3);
  QVERIFY(opened.written);
  AttentionPresenter& view = opened.view;
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(liveSnapshot(35)));
  QVERIFY(view.isFollowingLive());
  QCOMPARE(view.panel()->snapshot().step, 35LL);
  view.slider()->setValue(0);
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.panel()->snapshot().step, 10LL, 2000);
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(
      liveSnapshot(45)));  // kept, not shown: the user is looking back
  QCOMPARE(view.panel()->snapshot().step, 10LL);
  view.slider()->setValue(view.slider()->maximum());  // back at the end: live again
  QVERIFY(view.isFollowingLive());
  QCOMPARE(view.panel()->snapshot().step, 45LL);
}

void AttentionTimelineTest::listingDoesNotBlockTheGuiThread() {
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), 3));
  CurrentRun run;
  AttentionPresenter view(&run);
  showFolder(run, dir.filePath("run"));
  // The folder is listed on a worker: nothing is known yet when the call returns.
  QCOMPARE(view.snapshotCount(), 0);
  view.waitForLoad();
  QCOMPARE(view.snapshotCount(), 3);
  // A live probe lists the folder again, also off the GUI thread.
  QVERIFY(QFile::copy(dir.filePath("run/attention/step_000000030.msgpack"),
                      dir.filePath("run/attention/step_000000040.msgpack")));
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(liveSnapshot(40)));
  QCOMPARE(view.snapshotCount(), 3);
  view.waitForLoad();
  QCOMPARE(view.snapshotCount(), 4);
}

void AttentionTimelineTest::showStepPicksTheNearestSnapshotAndAnnouncesItsSample() {
  OpenedTimeline opened(5);
  QVERIFY(opened.written);
  AttentionPresenter& view = opened.view;
  QSignalSpy shown(&view, &AttentionPresenter::stepShown);
  view.showStep(22);  // snapshots at 10..50: 20 is nearest
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 2000);
  QCOMPARE(view.shownStep(), 20LL);
  QCOMPARE(view.panel()->snapshot().step, 20LL);
  QCOMPARE(shown[0][0].toLongLong(), 20LL);
  const auto sample = shown[0][1].value<std::optional<SamplePrediction>>();
  QVERIFY(sample.has_value());
  QCOMPARE(sample->answer, std::string("predicted at step 20"));
  const auto encoding = shown[0][2].value<std::optional<PositionalEncodingSnapshot>>();
  QVERIFY(encoding.has_value());
  QCOMPARE(encoding->positions, 6);  // 4 + i for the second snapshot
  view.showStep(1000);
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.shownStep(), 50LL, 2000);
}

void AttentionTimelineTest::stepByMovesAlongTheTimeline() {
  OpenedTimeline opened(4);
  QVERIFY(opened.written);
  AttentionPresenter& view = opened.view;
  view.showFirst();
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.shownStep(), 10LL, 2000);
  view.stepBy(1);
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.shownStep(), 20LL, 2000);
  view.stepBy(-5);  // clamped at the start
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.shownStep(), 10LL, 2000);
  view.showLast();
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.shownStep(), 40LL, 2000);
}

void AttentionTimelineTest::playAnimatesToTheEndThenStops() {
  OpenedTimeline opened(3);
  QVERIFY(opened.written);
  AttentionPresenter& view = opened.view;
  QSignalSpy shown(&view, &AttentionPresenter::stepShown);
  view.setPlaying(true);  // at the end: starts again from the first snapshot
  QVERIFY(view.isPlaying());
  QTRY_VERIFY_WITH_TIMEOUT(!view.isPlaying(), 5000);
  QList<long long> steps;
  for (const QList<QVariant>& call : shown) steps << call[0].toLongLong();
  QCOMPARE(steps, (QList<long long>{10, 20, 30}));
}

void AttentionTimelineTest::askedInputReplacesTheRunUntilBack() {
  OpenedTimeline opened(2);
  QVERIFY(opened.written);
  AttentionPresenter& view = opened.view;
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(liveSnapshot(25)));
  QSignalSpy asked(&view, &AttentionPresenter::askedShown);
  AttentionPlotData mine;
  mine.step = 25;
  AttentionPlotGroup group;
  group.name = QStringLiteral("encoder");
  LabeledMatrix head(2, 2, 0.5f);
  head.row_labels = head.col_labels = QStringList{QStringLiteral("my"), QStringLiteral("words")};
  group.layers = {{head}};
  mine.groups.push_back(group);
  view.showAsked(mine, QStringLiteral("your words"));
  QVERIFY(view.isShowingAsked());
  QCOMPARE(view.stepText(), QStringLiteral("your input"));
  // An Errors sample under the scope is named as what it is, not as the lecturer's input.
  view.showAsked(mine, QStringLiteral("test sample #7"), QStringLiteral("test sample #7"));
  QCOMPARE(view.stepText(), QStringLiteral("test sample #7"));
  view.showAsked(mine, QStringLiteral("your words"));
  QCOMPARE(view.stepText(), QStringLiteral("your input"));
  QVERIFY(view.backButton()->isVisibleTo(&view));
  QCOMPARE(view.panel()->snapshot().groups[0].layers[0][0].col_labels, head.col_labels);
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(
      liveSnapshot(30)));  // training goes on underneath; the asked input stays
  QCOMPARE(view.panel()->snapshot().groups[0].layers[0][0].col_labels, head.col_labels);
  QTest::mouseClick(view.backButton(), Qt::LeftButton);
  QVERIFY(!view.isShowingAsked());
  QCOMPARE(view.panel()->snapshot().step, 30LL);  // the live view is back, newest probe
  QCOMPARE(asked.size(), 4);                      // three inputs shown, then back to the run
  QCOMPARE(asked.back()[0].toBool(), false);
}

void AttentionTimelineTest::largeLiveProbesAreConvertedOffTheGuiThread() {
  CurrentRun run;
  AttentionPresenter view(&run);
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(liveSnapshot(5)));  // small: shown at once
  QCOMPARE(view.panel()->snapshot().step, 5LL);
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(
      bigSnapshot(10, 512, 5)));  // 1.3 M weights: converted on a worker
  QCOMPARE(view.panel()->snapshot().step, 5LL);
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(
      bigSnapshot(20, 512, 5)));  // arrives meanwhile: the newest wins
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(
      liveSnapshot(30)));  // small, but after the large ones: in order
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.panel()->snapshot().step, 30LL, 5000);
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(bigSnapshot(40, 512, 5)));
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.panel()->snapshot().step, 40LL, 5000);
  QCOMPARE(view.panel()->snapshot().groups[0].layers[0].size(), std::size_t(5));
}

// The timeline's state lives apart from any widget: a model alone lists an opened run, moves to
// the step nearest a request, announces it, and tells a view what to draw.
void AttentionTimelineTest::timelineWorksWithoutAView() {
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), 5));
  CurrentRun run;
  AttentionTimeline timeline(&run);
  long long drawn = -1;  // the step of what a view would draw
  QObject::connect(&timeline, &AttentionTimeline::shown, &timeline,
                   [&](const SharedPlotData& data, bool) { drawn = data->step; });
  QSignalSpy steps(&timeline, &AttentionTimeline::stepShown);
  showFolder(run, dir.filePath("run"));
  timeline.waitForLoad();
  QCOMPARE(timeline.snapshotCount(), 5);
  QCOMPARE(timeline.index(), 4);  // an opened run stands at its newest snapshot

  timeline.showStep(23);  // nearest stored step: 20
  timeline.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 2000);
  QCOMPARE(steps.at(0).at(0).toLongLong(), 20LL);
  QCOMPARE(timeline.index(), 1);
  QCOMPARE(timeline.shownStep(), 20LL);
  QVERIFY(!timeline.isFollowingLive());
  QCOMPARE(drawn, 20LL);

  // A live probe arriving now is kept, not shown: the user is looking back.
  timeline.setLiveProbes(std::make_shared<const ProbeSet>(liveSnapshot(60)));
  timeline.waitForLoad();
  QCOMPARE(timeline.shownStep(), 20LL);
  timeline.followLive();
  timeline.waitForLoad();
  QCOMPARE(timeline.shownStep(), 60LL);
  QCOMPARE(drawn, 60LL);
  QVERIFY(timeline.isFollowingLive());
}

// Opening a run takes each head's top of the Run scale straight from the stored snapshots
// (engine/analysis/head_maxima.h) instead of converting each one to plot data: the engine's rule
// must give what the screen's own rule (AttentionHeadDisplay::informativeMax) gives on the
// converted matrices, causal groups, NaN, infinite and missing heads included.
void AttentionTimelineTest::runScaleTakenFromStoredSnapshotsIsTheScreensRule() {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> weight(0.0f, 1.0f);
  for (int round = 0; round < 40; ++round) {
    AttentionSnapshot snapshot;
    snapshot.task = kSentimentTaskId;
    AttentionGroup group;
    group.name = "encoder";
    group.causal = round % 2 == 1;
    group.layers = 1 + round % 3;
    group.heads = 1 + round % 4;
    for (int i = 0; i < group.layers * group.heads; ++i) {
      AttentionMap map;
      map.rows = 1 + static_cast<int>(random() % 9);
      map.cols = group.causal ? map.rows : 1 + static_cast<int>(random() % 9);
      for (int c = 0; c < map.rows * map.cols; ++c) map.values.push_back(weight(random));
      if (round % 5 == 2) map.values[0] = std::numeric_limits<float>::quiet_NaN();
      if (round % 7 == 3) map.values.back() = std::numeric_limits<float>::infinity();
      group.maps.push_back(std::move(map));
    }
    if (round % 6 == 4) group.maps.pop_back();  // a head missing from a damaged snapshot
    const std::vector<std::vector<float>> tops = informativeHeadMaxima(group);
    snapshot.groups.push_back(group);
    const AttentionPlotData plot = toAttentionPlotData(snapshot);
    QCOMPARE(plot.groups.size(), std::size_t(1));
    QCOMPARE(plot.groups[0].name, attentionGroupTitle(snapshot.task, group.name));
    QCOMPARE(tops.size(), std::size_t(group.layers));
    for (int layer = 0; layer < group.layers; ++layer) {
      const auto& heads = plot.groups[0].layers[static_cast<std::size_t>(layer)];
      for (int head = 0; head < group.heads; ++head) {
        const double screen = static_cast<std::size_t>(head) < heads.size()
                                  ? AttentionHeadDisplay::informativeMax(
                                        heads[static_cast<std::size_t>(head)], group.causal)
                                  : 0.0;
        QCOMPARE(static_cast<double>(
                     tops[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)]),
                 screen);
      }
    }
  }
}

}  // namespace ascope

QTEST_MAIN(ascope::AttentionTimelineTest)
#include "attention_timeline_test.moc"
