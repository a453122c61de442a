#pragma once
// What the GUI receives from one drain of the engine's event queue, already in the values the
// panels take (QString, LabeledMatrix, RgbImage, SeriesPoint).
//
// Why not the engine's own structs: the conversion to Qt values (QString labels, row-major
// matrices, decimated series) happens once, in event_translation.cpp, so widget-side files
// (engine_bridge.cpp, attention_frame_conversion.cpp) never depend on engine/train/events.h.
// Attention travels as AttentionFrame, which attention_frame_conversion.h turns into the widgets'
// AttentionPlotData by moving its matrices.
#include <QString>

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "widgets/decimating_series.h"
#include "widgets/labeled_matrix.h"
#include "widgets/positional_encoding_data.h"
#include "widgets/rgb_image.h"
#include "widgets/sample_prediction.h"

namespace ascope {

/// The trainer's life cycle as the GUI shows it (mirrors ascope::TrainerState).
enum class RunState { Idle, Preparing, Running, Paused, Stopped, Finished, Failed };

/// True for the states after which the trainer thread has ended or is about to.
inline bool isFinal(RunState state) {
  return state == RunState::Stopped || state == RunState::Finished || state == RunState::Failed;
}

/// The newest step of a drain: what the progress bar shows.
struct ProgressReport {
  std::int64_t step = 0;
  std::int64_t total_steps = 0;
  int epoch = 0;
  double loss = 0;
  double accuracy = 0;
  double lr = 0;
  double samples_per_s = 0;  ///< the trainer's smoothed per-step rate
  double elapsed_s = 0;      ///< since training (not preparation) started
  double eta_s = 0;
};

/// End of an epoch or of an evaluation pass.
struct EpochReport {
  int epoch = 0;
  std::int64_t step = 0;
  double train_loss = 0;
  double train_accuracy = 0;
  double val_loss = 0;
  double val_accuracy = 0;
  std::optional<double> bleu;  ///< translation only, 0..100
};

/// One kind of attention (see widgets' AttentionGroup): layers[l][h] is one head's matrix.
struct AttentionFrameGroup {
  QString name;
  QString query_title;
  QString key_title;
  std::vector<std::vector<LabeledMatrix>> layers;
};

/// An attention snapshot on its way from the engine to the attention panel.
struct AttentionFrame {
  std::int64_t step = -1;
  std::vector<AttentionFrameGroup> groups;
  RgbImage image;  ///< ViT probe image (invalid otherwise)
  int grid_rows = 0;
  int grid_cols = 0;
};

/// The probe sample and the model's verdict, in the form its task shows.
using SampleView = std::variant<ImagePrediction, TextPrediction, TranslationPrediction>;

struct LogEntry {
  int level = 2;  ///< spdlog levels (same values as widgets' LogLevel)
  QString text;
};

struct StateReport {
  RunState state = RunState::Idle;
  QString reason;
};

struct GuiBatch {
  std::vector<SeriesPoint> train_loss;      ///< x = step
  std::vector<SeriesPoint> train_accuracy;  ///< x = step
  std::optional<ProgressReport> progress;   ///< the newest step of this drain
  std::vector<EpochReport> epochs;
  std::optional<AttentionFrame> attention;  ///< latest wins
  std::optional<PositionalEncodingData> positional_encoding;
  std::optional<SampleView> sample;
  std::vector<LogEntry> logs;
  std::vector<StateReport> states;
  std::vector<QString> failures;
  std::uint64_t dropped_metrics = 0;
  std::int64_t step_count = 0;   ///< StepMetrics events in this drain
  double samples_per_s_sum = 0;  ///< sum of their samples_per_s (for a mean over the run)

  bool empty() const {
    return train_loss.empty() && epochs.empty() && !attention && !positional_encoding && !sample &&
           logs.empty() && states.empty() && failures.empty();
  }
};

}  // namespace ascope
