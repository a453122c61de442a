#include "app/gui/window/app_options.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include <cstdio>

#include "engine/tasks/task_registry.h"

namespace ascope {

std::optional<AppOptions> AppOptions::parse(const QStringList& arguments, QString* error,
                                            bool* help_shown) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Train transformers live and watch what their attention does."));
  const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                QStringLiteral("Show this help."));
  const QCommandLineOption task(
      QStringLiteral("task"),
      QString::fromStdString(TaskRegistry::instance().idList()) + QStringLiteral("."),
      QStringLiteral("task"));
  const QCommandLineOption data(QStringLiteral("data"),
                                QStringLiteral("builtin (default) or a dataset path."),
                                QStringLiteral("data"), QStringLiteral("builtin"));
  const QCommandLineOption preset(QStringLiteral("preset"),
                                  QStringLiteral("One of the task's presets (default: laptop "
                                                 "where the task has it, else its first)."),
                                  QStringLiteral("preset"));
  const QCommandLineOption device(QStringLiteral("device"), QStringLiteral("cpu or cuda."),
                                  QStringLiteral("device"));
  const QCommandLineOption steps(QStringLiteral("train-steps"),
                                 QStringLiteral("Train this many steps at once (scripted mode)."),
                                 QStringLiteral("n"));
  const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Run folder of that run."),
                               QStringLiteral("dir"));
  const QCommandLineOption open(QStringLiteral("open"), QStringLiteral("Open a run folder."),
                                QStringLiteral("dir"));
  const QCommandLineOption shot(QStringLiteral("screenshot"),
                                QStringLiteral("Save the whole window as PNG when done."),
                                QStringLiteral("png"));
  const QCommandLineOption size(QStringLiteral("size"),
                                QStringLiteral("Window size WIDTHxHEIGHT (default 1600x1000)."),
                                QStringLiteral("size"));
  const QCommandLineOption export_dir(QStringLiteral("export-dir"),
                                      QStringLiteral("Export all panels to this folder when done."),
                                      QStringLiteral("dir"));
  const QCommandLineOption report(QStringLiteral("report"),
                                  QStringLiteral("Write the measured figures as JSON."),
                                  QStringLiteral("json"));
  const QCommandLineOption ask(QStringLiteral("ask"),
                               QStringLiteral("When done, ask the newest checkpoint (\"Try it\"): "
                                              "a review or sentence, or an image file for vit."),
                               QStringLiteral("input"));
  const QCommandLineOption step(
      QStringLiteral("step"),
      QStringLiteral("When done, show the run at the stored snapshot nearest step N in every dock "
                     "(curves' cursor, sample, attention, positional encoding) before exporting."),
      QStringLiteral("N"));
  const QCommandLineOption group(
      QStringLiteral("group"),
      QStringLiteral("When done, show this attention group, e.g. \"encoder self · rollout\"."),
      QStringLiteral("name"));
  const QCommandLineOption probe(QStringLiteral("probe-sample"),
                                 QStringLiteral("When done, show the K-th sample of the probe set "
                                                "(0-based) in every dock."),
                                 QStringLiteral("K"));
  const QCommandLineOption raise(QStringLiteral("raise"),
                                 QStringLiteral("When done, bring these docks to the front, by "
                                                "title (comma-separated), e.g. Heads,Ablation."),
                                 QStringLiteral("docks"));
  const QCommandLineOption ablate(
      QStringLiteral("ablate"),
      QStringLiteral("When done, run a head ablation of the run's newest checkpoint on N "
                     "validation samples (the Ablation dock) and wait for it."),
      QStringLiteral("N"));
  const QCommandLineOption quit(QStringLiteral("quit"), QStringLiteral("Exit when done."));
  const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Use a dark palette."));
  const QCommandLineOption timeout(QStringLiteral("timeout"),
                                   QStringLiteral("Scripted mode: give up after S seconds."),
                                   QStringLiteral("s"));
  parser.addOptions({help,  task,  data,  preset,     device, steps, out,
                     open,  shot,  size,  export_dir, report, ask,   step,
                     group, probe, raise, ablate,     quit,   dark,  timeout});
  if (!parser.parse(arguments)) {
    *error = parser.errorText();
    return std::nullopt;
  }
  if (parser.isSet(help)) {
    std::fputs(qPrintable(parser.helpText()), stdout);
    *help_shown = true;
    return std::nullopt;
  }
  AppOptions o;
  o.task = parser.value(task);
  o.data = parser.value(data);
  o.preset = parser.value(preset);
  o.device = parser.value(device);
  o.out_dir = parser.value(out);
  o.open_dir = parser.value(open);
  o.screenshot = parser.value(shot);
  o.export_dir = parser.value(export_dir);
  o.report = parser.value(report);
  o.ask = parser.value(ask);
  o.group = parser.value(group);
  o.raise_docks = parser.value(raise).split(QLatin1Char(','), Qt::SkipEmptyParts);
  if (parser.isSet(ablate)) {
    bool ok = false;
    o.ablate_samples = parser.value(ablate).toInt(&ok);
    if (!ok || o.ablate_samples < 16 || o.ablate_samples > 100000) {
      *error = QStringLiteral("--ablate must be 16..100000, got \"%1\"").arg(parser.value(ablate));
      return std::nullopt;
    }
  }
  if (parser.isSet(probe)) {
    bool ok = false;
    o.probe_sample = parser.value(probe).toInt(&ok);
    if (!ok || o.probe_sample < 0 || o.probe_sample > 15) {
      *error = QStringLiteral("--probe-sample must be 0..15, got \"%1\"").arg(parser.value(probe));
      return std::nullopt;
    }
  }
  o.quit = parser.isSet(quit);
  o.dark = parser.isSet(dark);
  if (!o.task.isEmpty()) {
    Expected<const TaskDescriptor*> descriptor = findTask(o.task.toStdString());
    if (!descriptor.ok()) {
      *error = QStringLiteral("--task: ") + QString::fromStdString(descriptor.error());
      return std::nullopt;
    }
    if (o.preset.isEmpty()) o.preset = QString::fromStdString((*descriptor)->defaultPreset(false));
    if (!(*descriptor)->hasPreset(o.preset.toStdString())) {
      *error = QStringLiteral("--preset must be %1, got \"%2\"")
                   .arg(QString::fromStdString((*descriptor)->presetList()), o.preset);
      return std::nullopt;
    }
  }
  if (parser.isSet(steps)) {
    bool ok = false;
    o.train_steps = parser.value(steps).toLongLong(&ok);
    if (!ok || o.train_steps < 1) {
      *error = QStringLiteral("--train-steps must be a positive number");
      return std::nullopt;
    }
    if (o.task.isEmpty()) {
      *error = QStringLiteral("--train-steps needs --task");
      return std::nullopt;
    }
  }
  if (parser.isSet(step)) {
    bool ok = false;
    o.step = parser.value(step).toLongLong(&ok);
    if (!ok || o.step < 0) {
      *error = QStringLiteral("--step must be a step number (0 or more), got \"%1\"")
                   .arg(parser.value(step));
      return std::nullopt;
    }
  }
  if (parser.isSet(size)) {
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)$")).match(parser.value(size));
    if (!m.hasMatch() || m.captured(1).toInt() < 320 || m.captured(2).toInt() < 240) {
      *error = QStringLiteral("--size must be WIDTHxHEIGHT, at least 320x240");
      return std::nullopt;
    }
    o.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
  }
  if (parser.isSet(timeout)) {
    bool ok = false;
    o.timeout_s = parser.value(timeout).toInt(&ok);
    if (!ok || o.timeout_s < 1) {
      *error = QStringLiteral("--timeout must be a positive number of seconds");
      return std::nullopt;
    }
  }
  if (!o.open_dir.isEmpty() && o.train_steps > 0) {
    *error = QStringLiteral("give either --open or --train-steps, not both");
    return std::nullopt;
  }
  return o;
}

}  // namespace ascope
