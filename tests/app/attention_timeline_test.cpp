// The Attention dock's timeline: it lists a run's stored snapshots, follows live probes, and
// dragging back loads an earlier snapshot from disk off the GUI thread (newest request wins).
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention_timeline_view.h"
#include "engine/run/run_folder.h"
#include "engine/run/run_reader.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "fake_engine.h"
#include "widgets/attention_head_grid_panel.h"

namespace ascope {

class AttentionTimelineTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void listsStoredSnapshots();
  void scrubbingLoadsEarlierSnapshots();
  void liveSnapshotsWaitWhileScrubbedBack();
};

namespace {

AttentionSnapshot liveSnapshot(long long step) {
  AttentionSnapshot s;
  s.step = step;
  s.task = kSentimentTaskId;
  AttentionGroup g;
  g.name = "encoder";
  g.layers = g.heads = 1;
  g.maps.push_back({3, 3, std::vector<float>(9, 1.0f / 3)});
  s.groups.push_back(g);
  return s;
}

/// The run folder `dir` as an opened run shows it.
void showFolder(CurrentRun& run, const QString& dir) {
  run.showOpened(*makePreset(kImageClassificationTaskId, "tiny"), dir);
}

}  // namespace

void AttentionTimelineTest::listsStoredSnapshots() {
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), 4));
  const std::vector<AttentionFileEntry> files =
      listAttentionFiles(dir.filePath("run").toStdString());
  QCOMPARE(files.size(), std::size_t(4));
  QCOMPARE(files.front().step, std::int64_t{10});
  QCOMPARE(files.back().step, std::int64_t{40});
  Expected<AttentionSnapshot> snapshot = readAttentionSnapshot(files[1].path);
  QVERIFY(snapshot.ok());
  QCOMPARE(snapshot->step, std::int64_t{20});
  QCOMPARE(snapshot->groups.size(), std::size_t(1));
}

void AttentionTimelineTest::scrubbingLoadsEarlierSnapshots() {
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), 5));
  CurrentRun run;
  AttentionTimelineView view(&run);
  view.resize(900, 600);
  view.show();
  showFolder(run, dir.filePath("run"));
  QCOMPARE(view.snapshotCount(), 5);
  QCOMPARE(view.slider()->maximum(), 4);
  QSignalSpy shown(&view, &AttentionTimelineView::snapshotShown);
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
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), 3));
  CurrentRun run;
  AttentionTimelineView view(&run);
  showFolder(run, dir.filePath("run"));
  view.setLiveSnapshot(liveSnapshot(35));
  QVERIFY(view.isFollowingLive());
  QCOMPARE(view.panel()->snapshot().step, 35LL);
  view.slider()->setValue(0);
  view.waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(view.panel()->snapshot().step, 10LL, 2000);
  view.setLiveSnapshot(liveSnapshot(45));  // kept, not shown: the user is looking back
  QCOMPARE(view.panel()->snapshot().step, 10LL);
  view.slider()->setValue(view.slider()->maximum());  // back at the end: live again
  QVERIFY(view.isFollowingLive());
  QCOMPARE(view.panel()->snapshot().step, 45LL);
}

}  // namespace ascope

QTEST_MAIN(ascope::AttentionTimelineTest)
#include "attention_timeline_test.moc"
