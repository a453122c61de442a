#include "tests/handout/synthetic_run.h"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/runfolder/bookmarks/bookmarks.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/run_folder.h"
#include "engine/vocabulary/payloads/decoding_payload.h"
#include "engine/vocabulary/training_config.h"

namespace ascope::testing {
namespace {

/// Row-normalised positive weights that depend on everything that names the map.
AttentionMap mapOf(int rows, int cols, int seed, bool causal) {
  AttentionMap map;
  map.rows = rows;
  map.cols = cols;
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    std::vector<double> row(static_cast<std::size_t>(cols));
    for (int c = 0; c < cols; ++c) {
      if (causal && c > r) continue;
      row[static_cast<std::size_t>(c)] = std::exp(std::sin(seed * 0.37 + r * 1.3 + c * 0.71) * 2);
      sum += row[static_cast<std::size_t>(c)];
    }
    for (int c = 0; c < cols; ++c) {
      map.values.push_back(
          causal && c > r ? 0.0f : static_cast<float>(row[static_cast<std::size_t>(c)] / sum));
    }
  }
  return map;
}

AttentionGroup groupOf(const std::string& name, int layers, int heads, int rows, int cols, int seed,
                       bool causal, const std::vector<std::string>& row_labels,
                       const std::vector<std::string>& col_labels) {
  AttentionGroup g;
  g.name = name;
  g.layers = layers;
  g.heads = heads;
  g.causal = causal;
  g.row_labels = row_labels;
  g.col_labels = col_labels;
  for (int l = 0; l < layers; ++l) {
    for (int h = 0; h < heads; ++h)
      g.maps.push_back(mapOf(rows, cols, seed + 31 * l + 7 * h, causal));
  }
  return g;
}

}  // namespace

ProbeSet syntheticProbeSet(int index, const SyntheticRunOptions& o) {
  ProbeSet set;
  set.step = 10 * index;
  std::vector<std::string> words = o.labels;
  for (int i = static_cast<int>(words.size()); i < o.tokens; ++i)
    words.push_back("w" + std::to_string(i));
  const std::vector<std::string> target = {"<s>", "il", "gatto", "nero"};
  for (int p = 0; p < o.probes; ++p) {
    AttentionSnapshot s;
    s.step = set.step;
    s.task = "synthetic";
    s.sample_index = 5 * p;
    const int seed = 1000 * p + 17 * index;
    s.groups.push_back(groupOf("encoder", 3, 2, o.tokens, o.tokens, seed, false, words, words));
    AttentionGroup self = groupOf("decoder self", 2, 2, 4, 4, seed + 3, true, target, target);
    self.row_predictions = {"il", "gatto", "nero", "</s>"};
    s.groups.push_back(self);
    AttentionGroup cross = groupOf("cross", 2, 2, 4, o.tokens, seed + 5, false, target, words);
    cross.row_predictions = self.row_predictions;
    s.groups.push_back(cross);
    DecodingPayload decoding;
    for (int i = 0; i < 4; ++i) decoding.steps.push_back({{{"il", 0.5}, {"la", 0.25}}});
    s.payloads.put(makePayload(std::move(decoding)));
    SamplePrediction prediction;
    prediction.step = set.step;
    prediction.task = "synthetic";
    prediction.sample_index = s.sample_index;
    prediction.input = "the black cat";
    prediction.expected = "il gatto nero";
    prediction.answer = index % 2 ? "il gatto nero" : "il cane";
    prediction.correct = index % 2 == 1;
    s.sample = prediction;
    if (p == 0) {
      PositionalEncodingSnapshot pe;
      pe.step = set.step;
      pe.kind = "sinusoidal";
      pe.positions = 8;
      pe.dims = 4;
      for (int i = 0; i < 32; ++i) pe.values.push_back(static_cast<float>(std::sin(i * 0.3)));
      s.positional_encoding = pe;
    }
    set.samples.push_back(std::move(s));
  }
  return set;
}

std::vector<std::int64_t> writeSyntheticRun(const std::string& dir, const SyntheticRunOptions& o) {
  std::vector<std::int64_t> steps;
  Expected<RunFolder> folder = RunFolder::create(dir, "synthetic");
  if (!folder.ok()) return steps;
  TrainingConfig config;
  config.task = "synthetic";
  config.probe_samples.clear();
  for (int p = 0; p < o.probes; ++p) config.probe_samples.push_back(5 * p);
  (void)folder->writeConfig(config);
  Expected<MetricsCsvWriter> metrics =
      MetricsCsvWriter::open(folder->metricsPath(), false, 0, {"bleu"});
  if (metrics.ok()) {
    for (int step = 1; step <= 10 * (o.snapshots - 1); ++step) {
      StepMetrics m;
      m.step = step;
      m.epoch = 1 + step / 50;
      m.loss = 2.0 / (1 + step * 0.05);
      m.accuracy = 1 - m.loss / 2.5;
      (void)metrics->append(m);
      if (step % 40 == 0) {
        EpochSummary e;
        e.epoch = m.epoch;
        e.step = step;
        e.val_loss = m.loss * 1.1;
        e.val_accuracy = m.accuracy * 0.95;
        e.figures.set("bleu", 30 * e.val_accuracy);
        (void)metrics->append(e, 1e-3);
      }
    }
  }
  (void)writeBookmarks(dir, {{20, "heads start to specialise"}});
  for (int i = 0; i < o.snapshots; ++i) {
    const ProbeSet set = syntheticProbeSet(i, o);
    if (folder->writeProbeSet(set).ok()) steps.push_back(set.step);
  }
  return steps;
}

TempFolder::TempFolder() {
  static std::atomic<int> counter{0};
  root_ =
      (std::filesystem::temp_directory_path() /
       ("attentionscope_handout_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
          .string();
  std::filesystem::remove_all(root_);
  std::filesystem::create_directories(root_);
}

TempFolder::~TempFolder() {
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

std::string TempFolder::path(const std::string& relative) const {
  return relative.empty() ? root_ : root_ + "/" + relative;
}

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string handoutDataOf(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"handout-data\">";
  const std::size_t begin = page.find(open);
  if (begin == std::string::npos) return "";
  const std::size_t end = page.find("</script>", begin);
  if (end == std::string::npos) return "";
  return page.substr(begin + open.size(), end - begin - open.size());
}

}  // namespace ascope::testing
