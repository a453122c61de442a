// Measuring heads in the window: the aggregate groups of a probe (mean of heads, rollout), the
// probe set's chooser driving the docks, and the Heads dock fed live, pointing back at the
// Attention dock.
#include <QComboBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "app/gui/bridge/ablation_job.h"
#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_aggregates.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/heads/heads_presenter.h"
#include "app/gui/window/main/main_window.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "fake_engine.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/tables/head_stats_grid_panel.h"
#include "widgets/tables/head_stats_store.h"

namespace ascope {

class HeadAnalysisTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aggregatesAddMeanAndRolloutGroups();
  void probeChooserSwitchesEveryDock();
  void headStatisticsArriveAndPointAtTheAttentionDock();
  void ablationOfARunWithoutCheckpointSaysSo();
};

namespace {

LabeledMatrix matrix(int rows, int cols, std::vector<float> values) {
  LabeledMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.values = std::move(values);
  return m;
}

/// Two heads whose rows are one-hot: head 0 on the token itself, head 1 on the first token.
AttentionPlotGroup selfGroup(int layers) {
  AttentionPlotGroup g;
  g.name = QStringLiteral("encoder self");
  for (int l = 0; l < layers; ++l) {
    g.layers.push_back(
        {matrix(3, 3, {1, 0, 0, 0, 1, 0, 0, 0, 1}), matrix(3, 3, {1, 0, 0, 1, 0, 0, 1, 0, 0})});
  }
  return g;
}

ProbeSet twoSampleSet(std::int64_t step) {
  ProbeSet probes;
  probes.step = step;
  for (int k = 0; k < 2; ++k) {
    AttentionSnapshot s;
    s.step = step;
    s.task = kSentimentTaskId;
    s.sample_index = 7 + k;
    AttentionGroup g;
    g.name = "encoder";
    g.layers = g.heads = 1;
    g.row_labels = g.col_labels = {"a", "b"};
    // Sample 0 looks at the first key, sample 1 at the second.
    g.maps.push_back(
        {2, 2, k == 0 ? std::vector<float>{1, 0, 1, 0} : std::vector<float>{0, 1, 0, 1}});
    s.groups.push_back(g);
    SamplePrediction p;
    p.task = kSentimentTaskId;
    p.sample_index = 7 + k;
    p.input = k == 0 ? "first review" : "second review";
    p.answer = k == 0 ? "positive" : "negative";
    s.sample = p;
    probes.samples.push_back(s);
  }
  return probes;
}

}  // namespace

void HeadAnalysisTest::aggregatesAddMeanAndRolloutGroups() {
  AttentionPlotData data;
  data.groups.push_back(selfGroup(2));
  AttentionPlotGroup cross;
  cross.name = QStringLiteral("cross");
  cross.layers.push_back({matrix(2, 3, {0.5f, 0.5f, 0, 0, 0, 1})});
  data.groups.push_back(cross);

  addAttentionAggregates(data, AggregateSettings{});
  addAttentionAggregates(data, AggregateSettings{});  // again: replaced, not added twice
  QCOMPARE(data.groups.size(), std::size_t(5));
  QCOMPARE(data.groups[2].name, QStringLiteral("encoder self · mean of heads"));
  QCOMPARE(data.groups[3].name, QStringLiteral("encoder self · rollout"));
  QCOMPARE(data.groups[4].name, QStringLiteral("cross · mean of heads"));  // no rollout for cross
  QCOMPARE(data.groups[3].aggregate_of, QStringLiteral("encoder self"));

  // Mean of the two heads: 0.5 on the diagonal and 0.5 on the first column (1 at [0][0]).
  const AttentionPlotGroup& mean = data.groups[2];
  QCOMPARE(mean.layerCount(), 1);
  QCOMPARE(mean.headCount(0), 2);  // one matrix per model layer
  QCOMPARE(mean.headName(1), QStringLiteral("layer 1"));
  const LabeledMatrix& m = mean.layers[0][0];
  QCOMPARE(m.at(0, 0), 1.0f);
  QCOMPARE(m.at(1, 0), 0.5f);
  QCOMPARE(m.at(1, 1), 0.5f);
  QCOMPARE(m.at(2, 1), 0.0f);

  // Rollout through layer 0: A = (W + I) / 2, rows renormalised (they already sum to 1):
  // row 1 = (0.25, 0.75, 0). Through layer 1: A·A, row 1 = 0.25·(1,0,0) + 0.75·(0.25,0.75,0)
  // = (0.4375, 0.5625, 0).
  const AttentionPlotGroup& rollout = data.groups[3];
  QCOMPARE(rollout.headName(1), QStringLiteral("layers 0–1"));
  QVERIFY(std::fabs(rollout.layers[0][0].at(1, 0) - 0.25f) < 1e-6f);
  QVERIFY(std::fabs(rollout.layers[0][0].at(1, 1) - 0.75f) < 1e-6f);
  QVERIFY(std::fabs(rollout.layers[0][1].at(1, 0) - 0.4375f) < 1e-6f);
  QVERIFY(std::fabs(rollout.layers[0][1].at(1, 1) - 0.5625f) < 1e-6f);

  // Max fusion keeps both heads' ones: row 1 of W = (1, 1, 0) → A row (0.5, 1, 0) / 1.5.
  AggregateSettings max_fusion;
  max_fusion.fusion = HeadFusion::kMax;
  addAttentionAggregates(data, max_fusion);
  QCOMPARE(data.groups.size(), std::size_t(5));
  QVERIFY(std::fabs(data.groups[3].layers[0][0].at(1, 0) - 1.0f / 3) < 1e-6f);
}

void HeadAnalysisTest::probeChooserSwitchesEveryDock() {
  CurrentRun run;
  AttentionPresenter view(&run);
  QSignalSpy live(&view, &AttentionPresenter::liveShown);
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(twoSampleSet(40)));
  view.waitForLoad();
  QCOMPARE(view.probeSelector()->count(), 2);
  QCOMPARE(view.probeSelector()->itemText(1), QStringLiteral("#8 second review"));
  QCOMPARE(view.panel()->snapshot().groups[0].layers[0][0].at(0, 0), 1.0f);
  QVERIFY(!live.isEmpty());
  auto sample = live.last().at(1).value<std::optional<SamplePrediction>>();
  QVERIFY(sample.has_value());
  QCOMPARE(sample->input, std::string("first review"));

  view.setProbeIndex(1);
  view.waitForLoad();
  QCOMPARE(view.panel()->snapshot().groups[0].layers[0][0].at(0, 0), 0.0f);
  QCOMPARE(view.panel()->snapshot().groups[0].layers[0][0].at(0, 1), 1.0f);
  sample = live.last().at(1).value<std::optional<SamplePrediction>>();
  QVERIFY(sample.has_value());
  QCOMPARE(sample->answer, std::string("negative"));

  // The next probe keeps the chosen sample.
  view.setLiveSnapshot(std::make_shared<const ProbeSet>(twoSampleSet(50)));
  view.waitForLoad();
  QCOMPARE(view.panel()->snapshot().step, 50LL);
  QCOMPARE(view.panel()->snapshot().groups[0].layers[0][0].at(0, 1), 1.0f);
}

void HeadAnalysisTest::headStatisticsArriveAndPointAtTheAttentionDock() {
  MainWindow window;
  window.resize(1600, 1000);
  window.show();
  auto owned = std::make_unique<FakeEngine>();
  FakeEngine& engine = *owned;
  TrainingConfig config = *makePreset(kImageClassificationTaskId, "tiny");
  window.bridge()->attach(std::move(owned), config);
  engine.pushState(2);
  engine.publishAttention(20, kImageClassificationTaskId);
  engine.pushHeadStatistics(10);
  engine.pushHeadStatistics(20, /*note=*/true);

  HeadStatsGridPanel* heads = window.headAnalysis()->heads();
  QTRY_COMPARE_WITH_TIMEOUT(heads->store().steps().size(), std::size_t(2), 3000);
  // The engine's "encoder" is the Attention dock's "encoder self" (the task's title for it).
  QCOMPARE(heads->currentGroup(), QStringLiteral("encoder self"));
  QCOMPARE(heads->notes().size(), std::size_t(1));
  QCOMPARE(heads->notes()[0].text, QStringLiteral("became previous-token (0.70; was broad)"));
  const std::vector<float>* series =
      heads->store().series(QStringLiteral("encoder self"), QStringLiteral("entropy"), 1, 1);
  QVERIFY(series != nullptr);
  QCOMPARE(series->size(), std::size_t(2));
  QVERIFY(std::fabs(series->back() - 0.4f) < 1e-6f);

  // Picking a head there shows it in the Attention dock.
  AttentionHeadGridPanel* attention = window.attention()->panel();
  QTRY_VERIFY_WITH_TIMEOUT(attention->groupCount() > 0, 3000);
  Q_EMIT heads->headPicked(QStringLiteral("encoder self"), 1, 1, 20);
  QCOMPARE(attention->snapshot().groups[static_cast<std::size_t>(attention->currentGroup())].name,
           QStringLiteral("encoder self"));
  QCOMPARE(attention->currentLayer(), 1);
  QCOMPARE(attention->currentHead(), 1);
  engine.pushState(5);
  engine.finish();
}

void HeadAnalysisTest::ablationOfARunWithoutCheckpointSaysSo() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString run = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 2));
  AblationJob job;
  QSignalSpy finished(&job, &AblationJob::finished);
  QVERIFY(job.start(run, 4));
  QVERIFY(job.isRunning());
  QVERIFY(!job.start(run, 4));  // one at a time
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
  QVERIFY(!job.isRunning());
  QCOMPARE(finished.at(0).at(0).toBool(), false);
  const QString error = finished.at(0).at(2).toString();
  QVERIFY2(error.contains(QStringLiteral("checkpoint")), qPrintable(error));
  // The worker is reaped and the job can run again.
  QVERIFY(job.start(run, 4));
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30000);
}

}  // namespace ascope

QTEST_MAIN(ascope::HeadAnalysisTest)
#include "head_analysis_test.moc"
