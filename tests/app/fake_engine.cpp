#include "fake_engine.h"

#include <cmath>

#include "engine/runfolder/run_folder.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/train/event_queue.h"

namespace ascope {
namespace {

AttentionGroup group(const std::string& name, const std::vector<std::string>& rows,
                     const std::vector<std::string>& cols, int layers, int heads,
                     std::int64_t step) {
  AttentionGroup g;
  g.name = name;
  g.layers = layers;
  g.heads = heads;
  g.row_labels = rows;
  g.col_labels = cols;
  for (int m = 0; m < layers * heads; ++m) {
    AttentionMap map;
    map.rows = static_cast<int>(rows.size());
    map.cols = static_cast<int>(cols.size());
    for (int r = 0; r < map.rows; ++r) {
      for (int c = 0; c < map.cols; ++c) {
        // Rows sum to 1; the pattern depends on the step so snapshots differ.
        map.values.push_back(
            static_cast<float>((r + c + m + step) % map.cols == 0 ? 0.6 : 0.4 / (map.cols - 1)));
      }
    }
    g.maps.push_back(std::move(map));
  }
  return g;
}

}  // namespace

FakeEngine::FakeEngine() = default;

void FakeEngine::pushSteps(std::int64_t first, int count, std::int64_t total_steps) {
  for (int i = 0; i < count; ++i) {
    StepMetrics m;
    m.step = first + i;
    m.epoch = 1 + static_cast<int>(m.step / 100);
    m.loss = 2.0 * std::exp(-m.step / 300.0) + 0.1;
    m.accuracy = 1.0 - std::exp(-m.step / 200.0);
    m.lr = 1e-3;
    m.samples_per_s = 500;
    m.total_steps = total_steps;
    m.elapsed_s = m.step * 0.05;
    m.eta_s = (total_steps - m.step) * 0.05;
    queue_.pushMetrics(m);
  }
}

void FakeEngine::pushEpoch(int epoch, std::int64_t step) {
  EpochSummary e;
  e.epoch = epoch;
  e.step = step;
  e.train_loss = 1.0 / epoch;
  e.train_accuracy = 0.5 + 0.1 * epoch;
  e.val_loss = 1.1 / epoch;
  e.val_accuracy = 0.45 + 0.1 * epoch;
  queue_.pushEpoch(e);
}

void FakeEngine::pushTestEvaluation(std::int64_t step, std::int64_t weights_step) {
  TestEvaluation t;
  t.epoch = 1;
  t.step = step;
  t.weights_step = weights_step;
  t.best_weights = weights_step != step;
  t.samples = 5000;
  t.loss = 0.3012;
  t.accuracy = 0.871;
  t.seconds = 3.21;
  queue_.pushTestEvaluation(t);
}

void FakeEngine::publishAttention(std::int64_t step, const std::string& task) {
  AttentionSnapshot s;
  s.step = step;
  s.task = task;
  if (task == kImageClassificationTaskId) {
    const std::vector<std::string> tokens{"CLS", "0", "1", "2", "3"};
    s.groups.push_back(group("encoder", tokens, tokens, 2, 2, step));
    ImagePayload image;
    image.image.width = image.image.height = 8;
    image.image.pixels.assign(3 * 8 * 8, 128);
    image.patch_size = 4;
    image.grid_rows = image.grid_cols = 2;
    s.payloads.put(makePayload(std::move(image)));
  } else {
    const std::vector<std::string> source{"the", "black", "cat", "[EOS]"};
    const std::vector<std::string> target{"[SOS]", "il", "gatto", "nero", "[EOS]"};
    s.groups.push_back(group("encoder self", source, source, 2, 2, step));
    // As the translation task fills them: row i is fed target[i] and predicts target[i + 1].
    const std::vector<std::string> predicted{"il", "gatto", "nero", "[EOS]", "[EOS]"};
    AttentionGroup decoder = group("decoder self", target, target, 2, 2, step);
    decoder.causal = true;
    decoder.row_predictions = predicted;
    s.groups.push_back(decoder);
    AttentionGroup cross = group("cross", target, source, 2, 2, step);
    cross.row_predictions = predicted;
    s.groups.push_back(cross);
    DecodingPayload transcript;
    for (const std::string& token : predicted)
      transcript.steps.push_back({{{token, 0.7}, {"un", 0.1}}});
    s.payloads.put(makePayload(std::move(transcript)));
  }
  ProbeSet probes;
  probes.step = step;
  probes.samples.push_back(std::move(s));
  queue_.publishAttention(std::make_shared<const ProbeSet>(std::move(probes)));
}

void FakeEngine::publishPositionalEncoding(int positions, int dims) {
  PositionalEncodingSnapshot pe;
  pe.kind = "sinusoidal";
  pe.positions = positions;
  pe.dims = dims;
  for (int p = 0; p < positions; ++p) {
    for (int d = 0; d < dims; ++d) {
      const double rate = std::pow(10000.0, -2.0 * (d / 2) / dims);
      pe.values.push_back(static_cast<float>(d % 2 == 0 ? std::sin(p * rate) : std::cos(p * rate)));
    }
  }
  queue_.publishPositionalEncoding(std::move(pe));
}

void FakeEngine::publishSample(const std::string& task) {
  SamplePrediction s;
  s.task = task;
  if (task == kImageClassificationTaskId) {
    ImagePayload image;
    image.image.width = image.image.height = 8;
    image.image.pixels.assign(3 * 8 * 8, 200);
    s.payloads.put(makePayload(std::move(image)));
    s.expected = "circle";
    s.answer = "circle";
    s.probability = 0.9;
    s.correct = true;
  } else {
    s.input = "the black cat";
    s.expected = "il gatto nero";
    s.answer = "il gatto bianco";
  }
  queue_.publishSample(std::move(s));
}

void FakeEngine::pushHeadStatistics(std::int64_t step, bool note) {
  HeadStatisticsUpdate update;
  update.step = step;
  for (int layer = 0; layer < 2; ++layer) {
    for (int head = 0; head < 2; ++head) {
      update.values.push_back({"encoder", layer, head, "entropy", 0.1 * (layer * 2 + head + 1)});
    }
  }
  if (note) {
    update.changes.push_back({step, "encoder", 1, 0, "broad", "previous-token", 0.7,
                              "encoder layer 1 head 0 became previous-token"});
  }
  queue_.pushHeadStatistics(std::move(update));
}

void FakeEngine::announceRunFolder(const std::string& path) {
  queue_.announceRunFolder(path);
}

void FakeEngine::pushLog(int level, const std::string& text) {
  queue_.pushLog({static_cast<Severity>(level), text});
}

void FakeEngine::pushState(int state) {
  queue_.pushState({static_cast<TrainerState>(state), {}});
}

void FakeEngine::pushFailure(const std::string& message) {
  queue_.pushFailure({0, message});
}

bool FakeEngine::writeRunFolder(const std::string& dir, int count) {
  Expected<RunFolder> folder = RunFolder::create(dir, kImageClassificationTaskId);
  if (!folder.ok()) return false;
  Expected<TrainingConfig> config = makePreset(kImageClassificationTaskId, "tiny");
  if (!config.ok() || !folder->writeConfig(*config).ok()) return false;
  for (int i = 1; i <= count; ++i) {
    FakeEngine engine;
    engine.publishAttention(10 * i, kImageClassificationTaskId);
    engine.publishSample(kImageClassificationTaskId);
    // Each step's encoding has its own number of positions, so a test can tell them apart.
    engine.publishPositionalEncoding(4 + i, 8);
    EventBatch events = engine.drainEvents();
    if (!events.attention || !events.sample || !events.positional_encoding) return false;
    ProbeSet probes = *events.attention;
    AttentionSnapshot* snapshot = &probes.samples.front();
    // As the trainer stores them: the probe's prediction and encoding of the step come along.
    snapshot->sample = std::move(*events.sample);
    snapshot->sample->step = 10 * i;
    snapshot->sample->answer = "predicted at step " + std::to_string(10 * i);
    snapshot->positional_encoding = std::move(*events.positional_encoding);
    snapshot->positional_encoding->step = 10 * i;
    if (!folder->writeProbeSet(probes).ok()) return false;
  }
  return true;
}

}  // namespace ascope
