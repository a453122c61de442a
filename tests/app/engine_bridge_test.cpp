// EngineBridge against a fake engine: drains are throttled to ≤ 30 Hz, a burst of metrics reaches
// the panels as one batch, and only the newest attention snapshot reaches the attention panel.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <thread>

#include "app/gui/engine_bridge.h"
#include "app/gui/engine_session.h"
#include "fake_engine.h"
#include "widgets/attention_head_grid_panel.h"
#include "widgets/metric_curve_panel.h"

namespace ascope {

class EngineBridgeTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void drainsAtMostThirtyTimesASecond();
  void burstOfMetricsIsOneBatch();
  void newestAttentionSnapshotWins();
  void translationGroupsKeepTheirAxes();
  void statesLogsAndFailuresArrive();
};

void EngineBridgeTest::drainsAtMostThirtyTimesASecond() {
  FakeEngine engine;
  EngineBridge bridge;
  QVERIFY(bridge.drainInterval() >= 33);
  QSignalSpy batches(&bridge, &EngineBridge::trainPointsArrived);
  bridge.attach(EngineSession::replay(engine.queue()));

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
  QVERIFY2(stats.drains <= seconds * 30.0 + 2,
           qPrintable(QStringLiteral("%1 drains in %2 s").arg(stats.drains).arg(seconds)));
  QCOMPARE(stats.steps, std::int64_t{4000});
  QVERIFY(batches.count() <= stats.drains);
  long long points = 0;
  for (const QList<QVariant>& args : batches) {
    points += static_cast<long long>(args.at(0).value<std::vector<SeriesPoint>>().size());
  }
  QCOMPARE(points, 4000LL);
  QVERIFY2(batches.count() < 100, "metrics must be batched, not delivered one by one");
}

void EngineBridgeTest::burstOfMetricsIsOneBatch() {
  FakeEngine engine;
  EngineBridge bridge;
  MetricCurvePanel loss(QStringLiteral("loss"));
  QObject::connect(&bridge, &EngineBridge::trainPointsArrived, &loss,
                   [&](const std::vector<SeriesPoint>& points, const std::vector<SeriesPoint>&) {
                     loss.appendTrainPoints(points);
                   });
  QSignalSpy batches(&bridge, &EngineBridge::trainPointsArrived);
  QSignalSpy delivered(&bridge, &EngineBridge::batchDelivered);
  QSignalSpy progress(&bridge, &EngineBridge::progressChanged);
  engine.pushSteps(1, 500);  // before the first drain
  bridge.attach(EngineSession::replay(engine.queue()));
  QTRY_COMPARE_WITH_TIMEOUT(batches.count(), 1, 1000);
  QTest::qWait(100);
  QCOMPARE(batches.count(), 1);
  QCOMPARE(delivered.count(), 1);
  QCOMPARE(progress.count(), 1);  // only the newest step drives the progress bar
  QCOMPARE(progress.at(0).at(0).value<ProgressReport>().step, std::int64_t{500});
  QCOMPARE(loss.trainSeries().size(), 500);
  QCOMPARE(loss.trainSeries().last().x, 500.0);
}

void EngineBridgeTest::newestAttentionSnapshotWins() {
  FakeEngine engine;
  EngineBridge bridge;
  AttentionHeadGridPanel panel;
  QObject::connect(&bridge, &EngineBridge::attentionChanged, &panel,
                   &AttentionHeadGridPanel::setSnapshot);
  QSignalSpy snapshots(&bridge, &EngineBridge::attentionChanged);
  for (int step = 10; step <= 50; step += 10) engine.publishAttention(step, "vit");
  bridge.attach(EngineSession::replay(engine.queue()));
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
  engine.publishAttention(60, "vit");
  QTRY_COMPARE_WITH_TIMEOUT(panel.snapshot().step, 60LL, 1000);
}

void EngineBridgeTest::translationGroupsKeepTheirAxes() {
  FakeEngine engine;
  EngineBridge bridge;
  AttentionPlotData received;
  QObject::connect(&bridge, &EngineBridge::attentionChanged, &bridge,
                   [&](const AttentionPlotData& s) { received = s; });
  engine.publishAttention(7, "translate");
  bridge.attach(EngineSession::replay(engine.queue()));
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
  FakeEngine engine;
  EngineBridge bridge;
  QSignalSpy states(&bridge, &EngineBridge::stateChanged);
  QSignalSpy logs(&bridge, &EngineBridge::logLine);
  QSignalSpy failures(&bridge, &EngineBridge::failed);
  bridge.attach(EngineSession::replay(engine.queue()));
  QCOMPARE(bridge.state(), RunState::Preparing);
  engine.pushState(2);
  engine.pushLog(3, "a warning");
  engine.pushFailure("loss is not finite");
  engine.pushState(3);
  QTRY_COMPARE_WITH_TIMEOUT(failures.count(), 1, 1000);
  QCOMPARE(bridge.state(), RunState::Paused);
  QCOMPARE(logs.count(), 1);
  QCOMPARE(logs.at(0).at(0).toInt(), 3);
  QCOMPARE(failures.at(0).at(0).toString(), QStringLiteral("loss is not finite"));
  QVERIFY(bridge.isActive());  // a replay drains until it is replaced; only trainers finish
}

}  // namespace ascope

QTEST_MAIN(ascope::EngineBridgeTest)
#include "engine_bridge_test.moc"
