#include "app/gui/run_reader.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include "app/gui/checkpoint_inference.h"
#include "app/gui/event_translation.h"
#include "engine/run/metrics_csv.h"
#include "engine/run/run_folder.h"

namespace ascope {
namespace {

/// "step_000001200.msgpack" → 1200; -1 when the name has no step.
std::int64_t stepOfFile(const QString& path) {
  const QString stem = QFileInfo(path).completeBaseName();
  bool ok = false;
  const std::int64_t step = stem.mid(stem.indexOf(QLatin1Char('_')) + 1).toLongLong(&ok);
  return ok ? step : -1;
}

void readMetrics(const RunFolder& folder, OpenedRun& run) {
  Expected<std::vector<MetricsRow>> rows = readMetricsCsv(folder.metricsPath());
  if (!rows.ok()) {
    run.warnings.push_back(QString::fromStdString(rows.error()));
    return;
  }
  int epoch_train_rows = 0;
  double loss_sum = 0, accuracy_sum = 0;
  for (const MetricsRow& row : *rows) {
    const double step = static_cast<double>(row.step);
    if (row.split == "train") {
      ProgressReport last;
      last.step = last.total_steps = row.step;
      last.epoch = row.epoch;
      last.loss = row.loss;
      last.accuracy = row.accuracy;
      last.lr = row.lr;
      last.samples_per_s = row.samples_per_s;
      run.last_step = last;
      run.train_loss.push_back({step, row.loss});
      run.train_accuracy.push_back({step, row.accuracy});
      ++epoch_train_rows;
      loss_sum += row.loss;
      accuracy_sum += row.accuracy;
      continue;
    }
    EpochReport report;
    report.epoch = row.epoch;
    report.step = row.step;
    report.train_loss = epoch_train_rows > 0 ? loss_sum / epoch_train_rows : 0;
    report.train_accuracy = epoch_train_rows > 0 ? accuracy_sum / epoch_train_rows : 0;
    report.val_loss = row.loss;
    report.val_accuracy = row.accuracy;
    report.bleu = row.bleu;
    run.epochs.push_back(report);
    epoch_train_rows = 0;
    loss_sum = accuracy_sum = 0;
  }
}

/// The last `max_lines` lines of log.txt. spdlog's file sink writes
/// "[2026-11-21 14:03:22.123] [trainer] [info] text"; the panel shows "14:03:22 text" in the
/// level's colour, like a live run.
void readLog(const RunFolder& folder, OpenedRun& run, int max_lines = 1000) {
  QFile file(QString::fromStdString(folder.logPath()));
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return;
  const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
  static const QRegularExpression pattern(
      QStringLiteral("^\\[\\d{4}-\\d\\d-\\d\\d (\\d\\d:\\d\\d:\\d\\d)[.\\d]*\\] \\[[^\\]]*\\] "
                     "\\[(\\w+)\\] (.*)$"));
  const QStringList levels{"trace", "debug", "info", "warning", "error", "critical"};
  for (qsizetype i = std::max<qsizetype>(0, lines.size() - max_lines); i < lines.size(); ++i) {
    const QString& line = lines[i];
    if (line.trimmed().isEmpty()) continue;
    const QRegularExpressionMatch m = pattern.match(line);
    if (!m.hasMatch()) {
      run.log.push_back({2, line});
      continue;
    }
    const int level = static_cast<int>(levels.indexOf(m.captured(2)));
    run.log.push_back({level < 0 ? 2 : level, m.captured(1) + QLatin1Char(' ') + m.captured(3)});
  }
}

}  // namespace

std::vector<AttentionFileEntry> listAttentionFiles(const QString& run_dir) {
  std::vector<AttentionFileEntry> files;
  Expected<RunFolder> folder = RunFolder::open(run_dir.toStdString());
  if (!folder.ok()) return files;
  for (const std::string& path : folder->attentionFiles()) {
    const QString qpath = QString::fromStdString(path);
    const std::int64_t step = stepOfFile(qpath);
    if (step >= 0) files.push_back({step, qpath});
  }
  return files;
}

Expected<AttentionFrame> readAttentionFrame(const QString& path) {
  Expected<AttentionSnapshot> snapshot = readAttentionSnapshot(path.toStdString());
  if (!snapshot.ok()) return Error{snapshot.error()};
  return toAttentionFrame(std::move(*snapshot));
}

Expected<OpenedRun> readRun(const QString& dir) {
  Expected<RunFolder> folder = RunFolder::open(dir.toStdString());
  if (!folder.ok()) return Error{folder.error()};
  Expected<TrainingConfig> config = folder->readConfig();
  if (!config.ok()) return Error{config.error()};
  OpenedRun run;
  run.path = QFileInfo(dir).absoluteFilePath();
  run.config = std::move(*config);
  readMetrics(*folder, run);
  readLog(*folder, run);
  run.attention_files = listAttentionFiles(dir);
  if (!run.attention_files.empty()) {
    Expected<AttentionFrame> frame = readAttentionFrame(run.attention_files.back().path);
    if (frame.ok()) {
      run.last_attention = std::move(*frame);
    } else {
      run.warnings.push_back(QString::fromStdString(frame.error()));
    }
  }
  Expected<PositionalEncodingSnapshot> pe = positionalEncodingFromCheckpoint(folder->path());
  if (pe.ok()) {
    run.positional_encoding = toPositionalEncodingData(std::move(*pe));
  } else {
    run.warnings.push_back(QString::fromStdString(pe.error()));
  }
  return run;
}

}  // namespace ascope
