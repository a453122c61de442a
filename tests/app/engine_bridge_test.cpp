// EngineBridge against a fake engine: drains are throttled to the bridge's interval (66 ms, 15 Hz),
// a burst of metrics reaches the panels as one batch, only the newest attention snapshot reaches
// the attention panel, commands reach the engine and the run's state and folder reach CurrentRun.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <thread>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/views/curves/metric_series_conversion.h"
#include "engine/tasks/registry/task_registry.h"
#include "fake_engine.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/curves/metric_curve_panel.h"

namespace ascope {
namespace {

/// Hands a fake engine to `bridge` as the run of a translation config and returns it.
FakeEngine& attachFake(EngineBridge& bridge, std::unique_ptr<FakeEngine> engine) {
  FakeEngine& fake = *engine;
  bridge.attach(std::move(engine), *makePreset(kTranslationTaskId, "tiny"));
  return fake;
}

}  // namespace

class EngineBridgeTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void drainsNoFasterThanTheInterval();
  void burstOfMetricsIsOneBatch();
  void newestAttentionSnapshotWins();
  void translationGroupsKeepTheirAxes();
  void statesLogsAndFailuresArrive();
  void commandsReachTheEngine();
  void runFolderAndEndReachCurrentRun();
};

void EngineBridgeTest::drainsNoFasterThanTheInterval() {
  CurrentRun run;
  EngineBridge bridge(&run);
  QCOMPARE(bridge.drainInterval(), EngineBridge::kDrainIntervalMs);
  QSignalSpy batches(&bridge, &EngineBridge::stepsArrived);
  FakeEngine& engine = attachFake(bridge, std::make_unique<FakeEngine>());

  // A producer far faster than any screen: 4000 steps within ~0.8 s, from another thread.
  std::atomic<bool> done{false};
  std::thread producer([&] {
    for (int i = 0; i < 800; ++i) {
      engine.pushSteps(1 + i * 5, 5);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    done = true;
  });
  QElapsedTimer clock;
  clock.start();
  while (!done) QTest::qWait(5);
  QTest::qWait(100);  // the last drain
  producer.join();
  const double seconds = clock.elapsed() / 1000.0;

  const EngineBridge::Stats& stats = bridge.stats();
  QVERIFY2(stats.drains <= seconds * 1000.0 / bridge.drainInterval() + 2,
           qPrintable(QStringLiteral("%1 drains in %2 s").arg(stats.drains).arg(seconds)));
  QCOMPARE(stats.steps, std::int64_t{4000});
  QVERIFY(batches.count() <= stats.drains);
  long long points = 0;
  for (const QList<QVariant>& args : batches) {
    points += static_cast<long long>(args.at(0).value<std::vector<StepMetrics>>().size());
  }
  QCOMPARE(points, 4000LL);
  QVERIFY2(batches.count() < 100, "metrics must be batched, not delivered one by one");
}

void EngineBridgeTest::burstOfMetricsIsOneBatch() {
  CurrentRun run;
  EngineBridge bridge(&run);
  MetricCurvePanel loss(QStringLiteral("loss"));
  QObject::connect(
      &bridge, &EngineBridge::stepsArrived, &loss,
      [&](const std::vector<StepMetrics>& steps) { loss.appendTrainPoints(lossPoints(steps)); });
  QSignalSpy batches(&bridge, &EngineBridge::stepsArrived);
  QSignalSpy delivered(&bridge, &EngineBridge::batchDelivered);
  auto owned = std::make_unique<FakeEngine>();
  owned->pushSteps(1, 500);  // before the first drain
  attachFake(bridge, std::move(owned));
  QTRY_COMPARE_WITH_TIMEOUT(batches.count(), 1, 1000);
  QTest::qWait(100);
  QCOMPARE(batches.count(), 1);
  QCOMPARE(delivered.count(), 1);
  QCOMPARE(batches.at(0).at(0).value<std::vector<StepMetrics>>().size(), std::size_t{500});
  QCOMPARE(bridge.stats().last_step.step, std::int64_t{500});  // what the progress bar shows
  QCOMPARE(loss.trainSeries().size(), 500);
  QCOMPARE(loss.trainSeries().last().x, 500.0);
}

void EngineBridgeTest::newestAttentionSnapshotWins() {
  CurrentRun run;
  EngineBridge bridge(&run);
  AttentionHeadGridPanel panel;
  QObject::connect(&bridge, &EngineBridge::attentionChanged, &panel,
                   [&](const std::shared_ptr<const ProbeSet>& s) {
                     panel.setSnapshot(toAttentionPlotData(s->samples.at(0)));
                   });
  QSignalSpy snapshots(&bridge, &EngineBridge::attentionChanged);
  auto owned = std::make_unique<FakeEngine>();
  for (int step = 10; step <= 50; step += 10) {
    owned->publishAttention(step, kImageClassificationTaskId);
  }
  FakeEngine& engine = attachFake(bridge, std::move(owned));
  QTRY_COMPARE_WITH_TIMEOUT(snapshots.count(), 1, 1000);
  QTest::qWait(100);
  QCOMPARE(snapshots.count(), 1);
  QCOMPARE(panel.snapshot().step, 50LL);
  QCOMPARE(panel.groupCount(), 1);
  QCOMPARE(panel.layerCount(), 2);
  QCOMPARE(panel.headCount(), 2);
  QVERIFY(panel.snapshot().image.isValid());
  QCOMPARE(bridge.stats().attention_deliveries, 1);

  // A later probe replaces it.
  engine.publishAttention(60, kImageClassificationTaskId);
  QTRY_COMPARE_WITH_TIMEOUT(panel.snapshot().step, 60LL, 1000);
}

void EngineBridgeTest::translationGroupsKeepTheirAxes() {
  CurrentRun run;
  EngineBridge bridge(&run);
  AttentionPlotData received;
  QObject::connect(&bridge, &EngineBridge::attentionChanged, &bridge,
                   [&](const std::shared_ptr<const ProbeSet>& s) {
                     received = toAttentionPlotData(s->samples.at(0));
                   });
  auto owned = std::make_unique<FakeEngine>();
  owned->publishAttention(7, kTranslationTaskId);
  attachFake(bridge, std::move(owned));
  QTRY_COMPARE_WITH_TIMEOUT(received.step, 7LL, 1000);
  QCOMPARE(received.groups.size(), std::size_t(3));
  QCOMPARE(received.groups[0].name, QStringLiteral("encoder self"));
  QCOMPARE(received.groups[1].name, QStringLiteral("decoder self"));
  const AttentionPlotGroup& cross = received.groups[2];
  QCOMPARE(cross.name, QStringLiteral("cross"));
  QCOMPARE(cross.query_title, QStringLiteral("target token"));
  QCOMPARE(cross.key_title, QStringLiteral("source token"));
  const LabeledMatrix& head = cross.layers[1][1];
  QCOMPARE(head.rows, 5);  // target tokens
  QCOMPARE(head.cols, 4);  // source tokens
  QCOMPARE(head.row_labels.at(1), QStringLiteral("il"));
  QCOMPARE(head.col_labels.at(2), QStringLiteral("cat"));
}

void EngineBridgeTest::statesLogsAndFailuresArrive() {
  CurrentRun run;
  EngineBridge bridge(&run);
  QSignalSpy states(&run, &CurrentRun::stateChanged);
  QSignalSpy logs(&bridge, &EngineBridge::logLine);
  QSignalSpy failures(&bridge, &EngineBridge::failed);
  FakeEngine& engine = attachFake(bridge, std::make_unique<FakeEngine>());
  QCOMPARE(run.state(), TrainerState::kPreparing);
  engine.pushState(2);
  engine.pushLog(3, "a warning");
  engine.pushFailure("loss is not finite");
  engine.pushState(3);
  QTRY_COMPARE_WITH_TIMEOUT(failures.count(), 1, 1000);
  QCOMPARE(run.state(), TrainerState::kPaused);
  QCOMPARE(states.count(), 3);  // preparing (attach), running, paused
  QCOMPARE(logs.count(), 1);
  QCOMPARE(logs.at(0).at(0).value<LogLine>().level, Severity::kWarning);
  QCOMPARE(failures.at(0).at(0).toString(), QStringLiteral("loss is not finite"));
  QVERIFY(bridge.isActive());  // until the engine says it has finished
}

void EngineBridgeTest::commandsReachTheEngine() {
  CurrentRun run;
  EngineBridge bridge(&run);
  FakeEngine& engine = attachFake(bridge, std::make_unique<FakeEngine>());
  bridge.pause();
  bridge.stepOnce();
  bridge.resume();
  bridge.setLearningRate(0.5);
  bridge.stop();
  const std::vector<std::string> expected{"pause", "step", "resume", "lr 0.500000", "stop"};
  QVERIFY(engine.commands == expected);
}

void EngineBridgeTest::runFolderAndEndReachCurrentRun() {
  CurrentRun run;
  EngineBridge bridge(&run);
  QSignalSpy folders(&run, &CurrentRun::folderChanged);
  QSignalSpy ended(&bridge, &EngineBridge::runEnded);
  FakeEngine& engine = attachFake(bridge, std::make_unique<FakeEngine>());
  QCOMPARE(run.task()->id, std::string(kTranslationTaskId));
  QVERIFY(run.isLive());
  engine.announceRunFolder("/tmp/some_run");
  engine.pushState(2);
  engine.publishAttention(5);
  engine.pushState(static_cast<int>(TrainerState::kFinished));
  engine.finish();
  QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 2000);
  QCOMPARE(run.folder(), QStringLiteral("/tmp/some_run"));
  QCOMPARE(run.state(), TrainerState::kFinished);
  QCOMPARE(ended.at(0).at(0).value<TrainerState>(), TrainerState::kFinished);
  QCOMPARE(bridge.stats().attention_deliveries, 1);  // delivered before the end was announced
  QVERIFY(!bridge.isActive());
  QVERIFY(folders.count() >= 1);
}

}  // namespace ascope

QTEST_MAIN(ascope::EngineBridgeTest)
#include "engine_bridge_test.moc"
