#include "app/gui/event_translation.h"

#include <QStringList>

#include <utility>

namespace ascope {
namespace {

QStringList toStringList(const std::vector<std::string>& items) {
  QStringList out;
  out.reserve(static_cast<int>(items.size()));
  for (const std::string& item : items) out.push_back(QString::fromStdString(item));
  return out;
}

/// Display name and axis titles of an engine attention group ("encoder", "encoder self",
/// "decoder self", "cross"), by task.
void describeGroup(const std::string& task, const std::string& name, AttentionFrameGroup& out) {
  const bool image = task == "vit";
  if (name == "cross") {
    out.name = QStringLiteral("cross");
    out.query_title = QStringLiteral("target token");
    out.key_title = QStringLiteral("source token");
  } else if (name == "decoder self") {
    out.name = QStringLiteral("decoder self");
    out.query_title = QStringLiteral("target token (query)");
    out.key_title = QStringLiteral("target token (key)");
  } else if (name == "encoder self" && task == "translate") {
    out.name = QStringLiteral("encoder self");
    out.query_title = QStringLiteral("source token (query)");
    out.key_title = QStringLiteral("source token (key)");
  } else {
    out.name = QStringLiteral("encoder self");
    out.query_title =
        image ? QStringLiteral("query (CLS, patches)") : QStringLiteral("query token");
    out.key_title = image ? QStringLiteral("key (CLS, patches)") : QStringLiteral("key token");
  }
}

}  // namespace

RunState toRunState(TrainerState state) {
  switch (state) {
    case TrainerState::kIdle:
      return RunState::Idle;
    case TrainerState::kPreparing:
      return RunState::Preparing;
    case TrainerState::kRunning:
      return RunState::Running;
    case TrainerState::kPaused:
      return RunState::Paused;
    case TrainerState::kStopped:
      return RunState::Stopped;
    case TrainerState::kFinished:
      return RunState::Finished;
    case TrainerState::kFailed:
      return RunState::Failed;
  }
  return RunState::Idle;
}

RgbImage toRgbImage(ImageBuffer&& image) {
  RgbImage out;
  out.width = image.width;
  out.height = image.height;
  const std::size_t plane = static_cast<std::size_t>(image.width) * image.height;
  out.channels = plane > 0 && image.pixels.size() == plane ? 1 : 3;
  out.planar = std::move(image.pixels);
  return out;
}

AttentionFrame toAttentionFrame(AttentionSnapshot&& snapshot) {
  AttentionFrame frame;
  frame.step = snapshot.step;
  for (AttentionGroup& group : snapshot.groups) {
    AttentionFrameGroup out;
    describeGroup(snapshot.task, group.name, out);
    const QStringList rows = toStringList(group.row_labels);
    const QStringList cols = toStringList(group.col_labels);
    out.layers.resize(static_cast<std::size_t>(std::max(0, group.layers)));
    for (int layer = 0; layer < group.layers; ++layer) {
      for (int head = 0; head < group.heads; ++head) {
        const std::size_t index = static_cast<std::size_t>(layer) * group.heads + head;
        if (index >= group.maps.size()) break;
        AttentionMap& map = group.maps[index];
        LabeledMatrix matrix;
        matrix.rows = map.rows;
        matrix.cols = map.cols;
        matrix.values = std::move(map.values);
        // Labels only when they match the (padding-trimmed) matrix; indices otherwise.
        if (rows.size() == map.rows) matrix.row_labels = rows;
        if (cols.size() == map.cols) matrix.col_labels = cols;
        out.layers[static_cast<std::size_t>(layer)].push_back(std::move(matrix));
      }
    }
    frame.groups.push_back(std::move(out));
  }
  if (snapshot.task == "vit" && snapshot.grid_rows > 0 && snapshot.grid_cols > 0) {
    frame.image = toRgbImage(std::move(snapshot.image));
    frame.grid_rows = snapshot.grid_rows;
    frame.grid_cols = snapshot.grid_cols;
  }
  return frame;
}

PositionalEncodingData toPositionalEncodingData(PositionalEncodingSnapshot&& snapshot) {
  PositionalEncodingData data;
  data.kind = snapshot.kind == "learned" ? PositionalEncodingKind::Learned
                                         : PositionalEncodingKind::Sinusoidal;
  data.matrix.rows = snapshot.positions;
  data.matrix.cols = snapshot.dims;
  data.matrix.values = std::move(snapshot.values);
  data.grid_rows = snapshot.grid_rows;
  data.grid_cols = snapshot.grid_cols;
  data.has_cls_row = snapshot.has_cls;
  if (snapshot.has_cls && snapshot.positions > 0) {
    data.matrix.row_labels.reserve(snapshot.positions);
    data.matrix.row_labels.push_back(QStringLiteral("CLS"));
    for (int p = 1; p < snapshot.positions; ++p)
      data.matrix.row_labels.push_back(QString::number(p - 1));
  }
  return data;
}

SampleView toSampleView(SamplePrediction&& sample) {
  if (sample.task == "translate") {
    return TranslationPrediction{QString::fromStdString(sample.text),
                                 QString::fromStdString(sample.true_label),
                                 QString::fromStdString(sample.predicted_label)};
  }
  if (sample.task == "vit") {
    return ImagePrediction{
        toRgbImage(std::move(sample.image)), QString::fromStdString(sample.true_label),
        QString::fromStdString(sample.predicted_label), static_cast<float>(sample.probability)};
  }
  return TextPrediction{
      QString::fromStdString(sample.text), QString::fromStdString(sample.true_label),
      QString::fromStdString(sample.predicted_label), static_cast<float>(sample.probability)};
}

GuiBatch translateEvents(EventBatch&& batch) {
  GuiBatch out;
  out.train_loss.reserve(batch.metrics.size());
  out.train_accuracy.reserve(batch.metrics.size());
  for (const StepMetrics& m : batch.metrics) {
    const double step = static_cast<double>(m.step);
    out.train_loss.push_back({step, m.loss});
    out.train_accuracy.push_back({step, m.accuracy});
    out.samples_per_s_sum += m.samples_per_s;
  }
  out.step_count = static_cast<std::int64_t>(batch.metrics.size());
  if (!batch.metrics.empty()) {
    const StepMetrics& m = batch.metrics.back();
    out.progress = ProgressReport{m.step, m.total_steps,   m.epoch,     m.loss, m.accuracy,
                                  m.lr,   m.samples_per_s, m.elapsed_s, m.eta_s};
  }
  for (const EpochSummary& e : batch.epochs) {
    out.epochs.push_back(
        {e.epoch, e.step, e.train_loss, e.train_accuracy, e.val_loss, e.val_accuracy, e.bleu});
  }
  if (batch.attention) out.attention = toAttentionFrame(std::move(*batch.attention));
  if (batch.positional_encoding) {
    out.positional_encoding = toPositionalEncodingData(std::move(*batch.positional_encoding));
  }
  if (batch.sample) out.sample = toSampleView(std::move(*batch.sample));
  for (LogLine& line : batch.logs) {
    out.logs.push_back({line.level, QString::fromStdString(line.text)});
  }
  for (const StateChange& change : batch.states) {
    out.states.push_back({toRunState(change.state), QString::fromStdString(change.reason)});
  }
  for (const Failure& failure : batch.failures) {
    out.failures.push_back(QString::fromStdString(failure.message));
  }
  out.dropped_metrics = batch.dropped_metrics;
  return out;
}

}  // namespace ascope
