#pragma once
// What a handout page shows, in the handout's own terms: curves as named series, notes on steps,
// attention frames of the probe samples, head statistics, ablation, settings. Only
// handout_data_from_run.cpp knows how a run folder stores these; the packing, the size limit and
// the page work on these plain types, so a change of the run folder's vocabulary touches that one
// file.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/vocabulary/calibration.h"

namespace ascope {

/// One curve of one metric on one split, e.g. the training loss per step.
struct HandoutSeries {
  std::string metric;  ///< key: "loss", "accuracy", "bleu", … (any name the run measured)
  std::string label;   ///< for people: "loss", "token accuracy", "BLEU"
  std::string chart;   ///< series with the same chart share one plot ("Loss", "Accuracy")
  std::string split;   ///< "train" (drawn raw and smoothed) or "validation"
  std::vector<double> steps;
  std::vector<double> values;
};

/// A figure of the final test: one value of one metric.
struct HandoutFigure {
  std::string metric;
  std::string label;
  double value = 0;
};

struct HandoutTest {
  std::int64_t step = 0;
  std::string
      description;  ///< "test split: 1,000 samples, weights of step 1,200 (best validation)"
  std::vector<HandoutFigure> figures;
};

/// A note on the run's timeline: a bookmark of the lecturer, a learning-rate change.
struct HandoutNote {
  std::int64_t step = 0;
  std::string kind;  ///< "bookmark", "learning rate"
  std::string text;
};

struct HandoutSetting {
  std::string key;  ///< "optimization.lr"
  std::string value;
};

/// One kind of attention the probes record (or an aggregate the handout adds, the rollout).
struct HandoutGroup {
  std::string key;    ///< the run's own name for it ("encoder", "cross")
  std::string title;  ///< "encoder self"
  std::string query_title = "query";
  std::string key_title = "key";
  bool causal = false;
  std::string aggregate_of;  ///< the title of the group a rollout was computed from, else ""
  /// Names of the layers where they are not "layer 0", "layer 1", …: a rollout has one map (one
  /// "head") per layer, the attention rolled out through layers 0–k, named "layers 0–k".
  std::vector<std::string> layer_names;
  /// Top of the run-wide colour scale: the largest weight of the group in every stored snapshot
  /// (causal heads' always-1 first row left out), as the window's Run scale.
  double run_max = 0;
};

/// One group's maps for one probe sample at one step.
struct HandoutAttention {
  int group = 0;  ///< index into HandoutData::groups
  int layers = 0;
  int heads = 0;
  int rows = 0;
  int cols = 0;
  std::vector<std::string> row_labels;
  std::vector<std::string> col_labels;
  /// Decoder rows: the token each row predicted (row i is fed token i); empty for encoders.
  std::vector<std::string> row_predictions;
  std::vector<float> weights;  ///< layers × heads × rows × cols, row-major; NaN = masked
  float map(int layer, int head, int row, int col) const {
    return weights[((static_cast<std::size_t>(layer) * heads + head) * rows + row) * cols + col];
  }
};

struct HandoutImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb_planar;  ///< R plane, G plane, B plane
  int grid_rows = 0;                     ///< patches per column (ViT)
  int grid_cols = 0;
  bool valid() const {
    return width > 0 && height > 0 && rgb_planar.size() == std::size_t{3} * width * height;
  }
};

struct HandoutPrediction {
  std::string text;        ///< what the model read: a review, a source sentence ("" for images)
  std::string truth;       ///< the right answer: a class name, a reference translation
  std::string prediction;  ///< the model's answer
  double probability = 0;  ///< of the predicted class (0 when not a class)
  bool correct = false;
};

/// Greedy decoding step i: the candidates for the token after row i, best first.
struct HandoutDecodingStep {
  std::vector<std::pair<std::string, double>> top;
};

/// One probe sample at one step.
struct HandoutProbe {
  int sample_index = 0;  ///< the validation sample probed
  std::vector<HandoutAttention> attention;
  HandoutImage image;
  std::optional<HandoutPrediction> prediction;
  std::vector<HandoutDecodingStep> decoding;
  bool decoder_fed_reference = false;  ///< decoder rows were fed the reference (teacher forcing)
};

struct HandoutPositionalEncoding {
  std::string kind;  ///< "sinusoidal", "learned"
  int positions = 0;
  int dims = 0;
  std::vector<float> values;  ///< positions × dims
  int grid_rows = 0;          ///< ViT: the patch grid
  int grid_cols = 0;
  bool has_cls = false;  ///< ViT: position 0 is CLS
};

/// Everything the probes saw at one stored step.
struct HandoutFrame {
  std::int64_t step = 0;
  std::vector<HandoutProbe> probes;
  std::optional<HandoutPositionalEncoding> positional_encoding;
};

struct HandoutHeadMetric {
  std::string name;
  std::string description;
  bool unit_range = true;  ///< values lie in 0..1
};

/// One metric of one head over the steps of HandoutHeadStats::steps (NaN where not measured).
struct HandoutHeadSeries {
  int group = 0;  ///< index into HandoutHeadStats::groups
  int layer = 0;
  int head = 0;
  int metric = 0;  ///< index into HandoutHeadStats::metrics
  std::vector<float> values;
};

struct HandoutHeadChange {
  std::int64_t step = 0;
  int group = 0;
  int layer = 0;
  int head = 0;
  std::string kind;  ///< what the head became: "previous-token"
  std::string text;  ///< "step 1,200: encoder self layer 1 head 3 became previous-token"
};

struct HandoutHeadStats {
  std::vector<std::string> groups;  ///< titles
  std::vector<HandoutHeadMetric> metrics;
  std::vector<double> steps;
  std::vector<HandoutHeadSeries> series;
  std::vector<HandoutHeadChange> changes;
  bool empty() const { return series.empty(); }
};

struct HandoutAblationRow {
  std::string group;  ///< title
  int layer = -1;     ///< -1: the baseline
  int head = -1;      ///< -1: the baseline and "drop layer"
  std::string ablation;
  double loss = 0;
  double accuracy = 0;
  /// The task's figures, in the order of HandoutAblation::figures; none where the row lacks one.
  std::vector<std::optional<double>> figures;
};

/// A figure the task declares beside loss and accuracy (BLEU, edit distance).
struct HandoutFigureInfo {
  std::string key;    ///< "bleu"
  std::string label;  ///< "BLEU"
  int decimals = 3;
  bool lower_better = false;
};

struct HandoutAblation {
  std::int64_t step = 0;  ///< of the checkpoint evaluated
  int samples = 0;
  std::vector<HandoutFigureInfo> figures;
  HandoutAblationRow baseline;
  std::vector<HandoutAblationRow> rows;
};

/// Where one stored frame is (a probe set file of the run folder).
struct HandoutFrameSource {
  std::int64_t step = 0;
  std::string path;
};

/// The run without its frames: they are read one by one (a run's snapshots can be gigabytes).
struct HandoutData {
  std::string run_name;  ///< the folder's name
  std::string task;      ///< the task's id
  std::string task_title;
  /// What the task calls a sample's three texts ("source", "reference", "translation"), and
  /// whether the answer is free text (compared word by word) rather than a class.
  std::string input_term = "input";
  std::string expected_term = "label";
  std::string answer_term = "answer";
  bool free_text = false;
  std::vector<HandoutSetting> settings;
  /// The few a student reads first, named for people (handout_key_settings.h).
  std::vector<HandoutSetting> key_settings;
  std::vector<HandoutSeries> series;
  std::optional<HandoutTest> test;
  std::vector<HandoutNote> notes;
  std::vector<int> probe_samples;  ///< validation indices, in the order of a frame's probes
  std::vector<HandoutGroup> groups;
  HandoutHeadStats head_stats;
  std::optional<HandoutAblation> ablation;
  /// A classifier's calibration.json (handout_calibration.h); none for a run without one.
  std::optional<RunCalibration> calibration;
  std::vector<HandoutFrameSource> frames;  ///< by step
  std::vector<std::string> warnings;       ///< what could not be read (the rest is there)
};

}  // namespace ascope
