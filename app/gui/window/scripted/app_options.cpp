#include "app/gui/window/scripted/app_options.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "app/gui/window/export/attention_video_export.h"
#include "app/version.h"
#include "engine/models/translator_config.h"
#include "engine/runfolder/lesson/lesson.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/vocabulary/data_split.h"

namespace ascope {
namespace {

/// A whole number option within lo..hi into `value` when given; an error naming it, or "".
QString readIntInRange(const QCommandLineParser& parser, const QCommandLineOption& option, int lo,
                       int hi, int* value) {
  if (!parser.isSet(option)) return QString();
  bool ok = false;
  const int read = parser.value(option).toInt(&ok);
  if (ok && read >= lo && read <= hi) {
    *value = read;
    return QString();
  }
  return QStringLiteral("--%1 must be %2..%3, got \"%4\"")
      .arg(option.names().front())
      .arg(lo)
      .arg(hi)
      .arg(parser.value(option));
}

/// --computation, --cell Q,K and --stage N; an error naming the option and value, or "".
QString parseComputationOptions(const QCommandLineParser& parser, const QCommandLineOption& shown,
                                const QCommandLineOption& cell, const QCommandLineOption& stage,
                                AppOptions* o) {
  o->computation = parser.isSet(shown) || parser.isSet(cell) || parser.isSet(stage);
  if (parser.isSet(cell)) {
    const QStringList parts = parser.value(cell).split(QLatin1Char(','));
    bool ok_query = false, ok_key = false;
    if (parts.size() == 2) {
      o->cell_query = parts[0].trimmed().toInt(&ok_query);
      o->cell_key = parts[1].trimmed().toInt(&ok_key);
    }
    if (!ok_query || !ok_key || o->cell_query < 0 || o->cell_key < 0)
      return QStringLiteral("--cell must be QUERY,KEY (token indices from 0), got \"%1\"")
          .arg(parser.value(cell));
  }
  if (parser.isSet(stage)) {
    bool ok = false;
    o->stage = parser.value(stage).toInt(&ok);
    if (!ok || o->stage < 0 || o->stage > 8)
      return QStringLiteral(
                 "--stage must be 0..8 (0 the layer's input, 8 the output "
                 "projection), got \"%1\"")
          .arg(parser.value(stage));
  }
  return {};
}

/// --export-video and the options that shape it; an error naming the option and value, or "".
QString parseVideoOptions(const QCommandLineParser& parser, const QCommandLineOption& file,
                          const QCommandLineOption& view, const QCommandLineOption& layer,
                          const QCommandLineOption& head, const QCommandLineOption& fps,
                          AppOptions* o) {
  const auto number = [&parser](const QCommandLineOption& option, int* value) {
    if (!parser.isSet(option)) return QString();
    bool ok = false;
    const QString text = parser.value(option);
    *value = text.toInt(&ok);
    if (ok && *value >= 0) return QString();
    return QStringLiteral("--%1 must be a number, 0 or more, got \"%2\"")
        .arg(option.names().front(), text);
  };
  for (const auto& [option, value] :
       {std::pair{&layer, &o->video_layer}, std::pair{&head, &o->video_head},
        std::pair{&fps, &o->video_fps}}) {
    if (QString problem = number(*option, value); !problem.isEmpty()) return problem;
  }
  if (parser.isSet(view)) o->video_view = parser.value(view);
  if (!QStringList{QStringLiteral("head"), QStringLiteral("grid"), QStringLiteral("overlay")}
           .contains(o->video_view))
    return QStringLiteral("--video-view must be head, grid or overlay, got \"%1\"")
        .arg(o->video_view);
  o->export_video = parser.value(file);
  if (o->export_video.isEmpty()) return {};
  if (o->open_dir.isEmpty() && o->train_steps <= 0)
    return QStringLiteral("--export-video needs a run: --open or --train-steps");
  AttentionVideoRequest request;
  request.path = o->export_video;
  request.layer = o->video_layer;
  request.head = o->video_head;
  request.fps = o->video_fps;
  if (QString problem = AttentionVideoExport::checkRequest(request); !problem.isEmpty())
    return QStringLiteral("--export-video: ") + problem;
  return {};
}

}  // namespace

std::optional<AppOptions> AppOptions::parse(const QStringList& arguments, QString* error,
                                            bool* answered) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Train transformers live and watch what their attention does."));
  const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                QStringLiteral("Show this help."));
  const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version."));
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
  const QCommandLineOption model(
      QStringLiteral("model"),
      QStringLiteral("With --task: fine-tune this pretrained Hugging Face model folder (the Run "
                     "dock's Model choice); the preset defaults to the task's fine-tune preset."),
      QStringLiteral("dir"));
  const QCommandLineOption steps(QStringLiteral("train-steps"),
                                 QStringLiteral("Train this many steps at once (scripted mode); "
                                                "\"all\": the preset's whole run."),
                                 QStringLiteral("n"));
  const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Run folder of that run."),
                               QStringLiteral("dir"));
  const QCommandLineOption open(QStringLiteral("open"), QStringLiteral("Open a run folder."),
                                QStringLiteral("dir"));
  const QCommandLineOption compare(
      QStringLiteral("compare"),
      QStringLiteral("With --open: compare the opened run with this one (File → Compare with "
                     "run…); --screenshot then shows the comparison window."),
      QStringLiteral("dir"));
  const QCommandLineOption shot(QStringLiteral("screenshot"),
                                QStringLiteral("Save the whole window as PNG when done."),
                                QStringLiteral("png"));
  const QCommandLineOption size(QStringLiteral("size"),
                                QStringLiteral("Window size WIDTHxHEIGHT (default 1600x1000)."),
                                QStringLiteral("size"));
  const QCommandLineOption export_dir(
      QStringLiteral("export-dir"),
      QStringLiteral("Export all panels to this folder when done, with every layer's "
                     "attention and every positional-encoding view."),
      QStringLiteral("dir"));
  const QCommandLineOption report(QStringLiteral("report"),
                                  QStringLiteral("Write the measured figures as JSON."),
                                  QStringLiteral("json"));
  const QCommandLineOption ask(QStringLiteral("ask"),
                               QStringLiteral("When done, ask the newest checkpoint (\"Try it\"): "
                                              "a review or sentence, or an image file for vit."),
                               QStringLiteral("input"));
  const QCommandLineOption beam(
      QStringLiteral("beam"),
      QStringLiteral("With --ask on a translation run, translate with a "
                     "beam of K hypotheses (drawn in the Decoding dock)."),
      QStringLiteral("K"));
  const QCommandLineOption words(
      QStringLiteral("words"), QStringLiteral("When done, show attention between words instead "
                                              "of subword pieces (where the tokens are pieces)."));
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
  const QCommandLineOption evaluate(
      QStringLiteral("evaluate"),
      QStringLiteral("When done, score the run on the split (test, validation, train or all) of "
                     "--data, else of the run's own data, in the Errors dock and wait for it."),
      QStringLiteral("split"));
  const QCommandLineOption quit(QStringLiteral("quit"), QStringLiteral("Exit when done."));
  const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Use a dark palette."));
  const QCommandLineOption presentation(
      QStringLiteral("presentation"),
      QStringLiteral("Start in presentation mode: attention on most of the window (full screen "
                     "unless scripted)."));
  const QCommandLineOption zoom(
      QStringLiteral("zoom"),
      QStringLiteral("Font zoom in steps of 20 %, -3..8 (Ctrl+= / Ctrl+-)."),
      QStringLiteral("steps"));
  const QCommandLineOption high_contrast(QStringLiteral("high-contrast"),
                                         QStringLiteral("Use the high-contrast theme."));
  const QCommandLineOption timeout(QStringLiteral("timeout"),
                                   QStringLiteral("Scripted mode: give up after S seconds."),
                                   QStringLiteral("s"));
  parser.addOptions({help,  task,  data,  preset,     device, steps, out,
                     open,  shot,  size,  export_dir, report, ask,   step,
                     group, probe, raise, ablate,     quit,   dark,  timeout});
  parser.addOptions({presentation, zoom, high_contrast, model, version});
  parser.addOptions({beam, words, evaluate});
  const QCommandLineOption export_video(
      QStringLiteral("export-video"),
      QStringLiteral("When done, export the attention of every stored snapshot of the run as a "
                     "video (.gif or .mp4, one frame per snapshot)."),
      QStringLiteral("file"));
  const QCommandLineOption video_view(QStringLiteral("video-view"),
                                      QStringLiteral("What the video shows: head (default), grid "
                                                     "(every head of the layer) or overlay (ViT "
                                                     "CLS attention over the image)."),
                                      QStringLiteral("view"));
  const QCommandLineOption video_layer(QStringLiteral("layer"),
                                       QStringLiteral("Layer of the video (0-based, default 0)."),
                                       QStringLiteral("L"));
  const QCommandLineOption video_head(QStringLiteral("head"),
                                      QStringLiteral("Head of the video (0-based, default 0)."),
                                      QStringLiteral("H"));
  const QCommandLineOption video_fps(QStringLiteral("fps"),
                                     QStringLiteral("Frames per second of the video (default 4)."),
                                     QStringLiteral("N"));
  parser.addOptions({export_video, video_view, video_layer, video_head, video_fps});
  parser.addOption(compare);
  const QCommandLineOption inspect_model(
      QStringLiteral("inspect-model"),
      QStringLiteral("Inspect a pretrained model folder without training (File → Inspect "
                     "pretrained model…) with --text and --pair; --screenshot then shows every "
                     "layer and head."),
      QStringLiteral("dir"));
  const QCommandLineOption inspect_text(QStringLiteral("text"),
                                        QStringLiteral("With --inspect-model: the sentence."),
                                        QStringLiteral("text"));
  const QCommandLineOption inspect_pair(
      QStringLiteral("pair"), QStringLiteral("With --inspect-model: an optional second sentence."),
      QStringLiteral("text"));
  const QCommandLineOption inspect_image(
      QStringLiteral("image"),
      QStringLiteral(
          "With --inspect-model: an image file for a pretrained ViT (instead of --text)."),
      QStringLiteral("file"));
  parser.addOptions({inspect_model, inspect_text, inspect_pair, inspect_image});
  const QCommandLineOption computation(
      QStringLiteral("computation"),
      QStringLiteral("When done, show the Computation dock: the head on screen (--layer, --head) "
                     "recomputed stage by stage with the model's own weights."));
  const QCommandLineOption computation_cell(
      QStringLiteral("cell"),
      QStringLiteral("With --computation: the weight taken apart, QUERY,KEY (token indices "
                     "from 0)."),
      QStringLiteral("Q,K"));
  const QCommandLineOption computation_stage(
      QStringLiteral("stage"),
      QStringLiteral("With --computation: the stage drawn, 0 (the layer's input) .. 8 (the output "
                     "projection)."),
      QStringLiteral("N"));
  parser.addOptions({computation, computation_cell, computation_stage});
  const QCommandLineOption lesson(
      QStringLiteral("lesson"),
      QStringLiteral("Open a lesson file (Lesson → Open lesson…) and play its --moment."),
      QStringLiteral("file"));
  const QCommandLineOption lesson_moment(
      QStringLiteral("moment"),
      QStringLiteral("With --lesson: the moment to play (1 = the first)."), QStringLiteral("n"));
  const QCommandLineOption lesson_tally(
      QStringLiteral("tally"),
      QStringLiteral(
          "With --lesson: the class's votes for a hidden row, \"trophy 12, suitcase 5\"."),
      QStringLiteral("votes"));
  const QCommandLineOption lesson_reveal(
      QStringLiteral("reveal"), QStringLiteral("With --lesson: reveal the hidden head and score."));
  parser.addOptions({lesson, lesson_moment, lesson_tally, lesson_reveal});
  const QCommandLineOption add_moment(
      QStringLiteral("add-moment"),
      QStringLiteral("With --open and --lesson-out: add what the window shows as a moment with "
                     "this question (Lesson → Add moment…)."),
      QStringLiteral("question"));
  const QCommandLineOption lesson_out(
      QStringLiteral("lesson-out"),
      QStringLiteral("The lesson file --add-moment adds to (created when missing)."),
      QStringLiteral("file"));
  const QCommandLineOption hide_query(
      QStringLiteral("hide-query"),
      QStringLiteral("With --add-moment: hidden until the class has guessed; -1 the whole head, "
                     "else that query's row."),
      QStringLiteral("n"));
  const QCommandLineOption moment_view(
      QStringLiteral("moment-view"),
      QStringLiteral("With --add-moment: the view that shows it (attention, heads, decoding, "
                     "encoding, curves, sample)."),
      QStringLiteral("view"));
  parser.addOptions({add_moment, lesson_out, hide_query, moment_view});
  if (!parser.parse(arguments)) {
    *error = parser.errorText();
    return std::nullopt;
  }
  if (parser.isSet(help)) {
    std::fputs(qPrintable(parser.helpText()), stdout);
    *answered = true;
    return std::nullopt;
  }
  if (parser.isSet(version)) {
    std::printf("attentionscope %s\n", kVersion);
    *answered = true;
    return std::nullopt;
  }
  AppOptions o;
  o.task = parser.value(task);
  o.data = parser.value(data);
  o.data_given = parser.isSet(data);
  o.preset = parser.value(preset);
  o.device = parser.value(device);
  o.model = parser.value(model);
  if (!o.model.isEmpty() && o.task.isEmpty()) {
    *error = QStringLiteral("--model needs --task: the task that fine-tunes it (imdb or vit)");
    return std::nullopt;
  }
  o.out_dir = parser.value(out);
  o.open_dir = parser.value(open);
  o.compare_dir = parser.value(compare);
  o.inspect_model = parser.value(inspect_model);
  o.inspect_text = parser.value(inspect_text);
  o.inspect_pair = parser.value(inspect_pair);
  o.inspect_image = parser.value(inspect_image);
  o.screenshot = parser.value(shot);
  o.export_dir = parser.value(export_dir);
  o.report = parser.value(report);
  o.ask = parser.value(ask);
  if (parser.isSet(ask) && o.ask.trimmed().isEmpty()) {
    *error = QStringLiteral("--ask: the text is empty");  // as attentionscope-cli infer says
    return std::nullopt;
  }
  o.words = parser.isSet(words);
  o.group = parser.value(group);
  o.raise_docks = parser.value(raise).split(QLatin1Char(','), Qt::SkipEmptyParts);
  o.evaluate_split = parser.value(evaluate);
  if (parser.isSet(evaluate) && o.evaluate_split != QLatin1String("all") &&
      !parseSplit(o.evaluate_split.toStdString())) {
    *error = QStringLiteral("--evaluate must be test, validation, train or all, got \"%1\"")
                 .arg(o.evaluate_split);
    return std::nullopt;
  }
  for (const auto& [option, lo, hi, value] :
       {std::tuple{&ablate, 16, 100000, &o.ablate_samples},
        std::tuple{&beam, 1, static_cast<int>(TranslatorConfig::kMaxBeamWidth), &o.beam},
        std::tuple{&probe, 0, 15, &o.probe_sample}, std::tuple{&zoom, -3, 8, &o.zoom},
        std::tuple{&lesson_moment, 1, 500, &o.lesson_moment},
        std::tuple{&hide_query, -1, 100000, &o.hide_query}}) {
    if (QString problem = readIntInRange(parser, *option, lo, hi, value); !problem.isEmpty()) {
      *error = problem;
      return std::nullopt;
    }
  }
  o.quit = parser.isSet(quit);
  o.dark = parser.isSet(dark);
  o.presentation = parser.isSet(presentation);
  o.high_contrast = parser.isSet(high_contrast);
  if (!o.task.isEmpty()) {
    Expected<const TaskDescriptor*> descriptor = findTask(o.task.toStdString());
    if (!descriptor.ok()) {
      *error = QStringLiteral("--task: ") + QString::fromStdString(descriptor.error());
      return std::nullopt;
    }
    if (!o.model.isEmpty() && !(*descriptor)->fine_tunes_pretrained) {
      *error = QStringLiteral("--model: the task %1 trains its own model only").arg(o.task);
      return std::nullopt;
    }
    if (o.preset.isEmpty()) {
      o.preset = QString::fromStdString((*descriptor)->defaultPreset(false, !o.model.isEmpty()));
    }
    if (!(*descriptor)->hasPreset(o.preset.toStdString())) {
      *error = QStringLiteral("--preset must be %1, got \"%2\"")
                   .arg(QString::fromStdString((*descriptor)->presetList()), o.preset);
      return std::nullopt;
    }
  }
  if (parser.isSet(steps)) {
    bool ok = false;
    if (parser.value(steps) == QLatin1String("all")) {
      o.train_steps = AppOptions::kWholeRun;
      ok = true;
    } else {
      o.train_steps = parser.value(steps).toLongLong(&ok);
    }
    if (!ok || o.train_steps < 1) {
      *error = QStringLiteral("--train-steps must be a positive number or \"all\"");
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
        QRegularExpression(QStringLiteral("^(\\d{1,9})x(\\d{1,9})$")).match(parser.value(size));
    const int width = m.hasMatch() ? m.captured(1).toInt() : 0;
    const int height = m.hasMatch() ? m.captured(2).toInt() : 0;
    // A window of 100000x100000 grew the process to 24 GB before the kernel ended it:
    // 8K is the largest screen a window is shown on.
    if (width < kMinWindowSize.width() || height < kMinWindowSize.height() ||
        width > kMaxWindowSize.width() || height > kMaxWindowSize.height()) {
      *error = QStringLiteral("--size must be WIDTHxHEIGHT from %1x%2 to %3x%4, got \"%5\"")
                   .arg(kMinWindowSize.width())
                   .arg(kMinWindowSize.height())
                   .arg(kMaxWindowSize.width())
                   .arg(kMaxWindowSize.height())
                   .arg(parser.value(size));
      return std::nullopt;
    }
    o.size = QSize(width, height);
  }
  if (parser.isSet(timeout)) {
    bool ok = false;
    o.timeout_s = parser.value(timeout).toDouble(&ok);
    if (!ok || !(o.timeout_s > 0) || o.timeout_s > kMaxTimeoutSeconds) {
      *error = QStringLiteral(
                   "--timeout must be a number of seconds above 0 and at most %1 (e.g. "
                   "0.5 or 600), got \"%2\"")
                   .arg(kMaxTimeoutSeconds, 0, 'f', 0)
                   .arg(parser.value(timeout));
      return std::nullopt;
    }
  }
  if (!o.inspect_model.isEmpty() && o.inspect_text.trimmed().isEmpty() &&
      o.inspect_image.isEmpty()) {
    *error = QStringLiteral("--inspect-model needs --text \"a sentence\" or --image FILE");
    return std::nullopt;
  }
  if ((!o.inspect_text.isEmpty() || !o.inspect_pair.isEmpty() || !o.inspect_image.isEmpty()) &&
      o.inspect_model.isEmpty()) {
    *error = QStringLiteral("--text, --pair and --image go with --inspect-model");
    return std::nullopt;
  }
  o.lesson = parser.value(lesson);
  o.lesson_tally = parser.value(lesson_tally);
  o.lesson_reveal = parser.isSet(lesson_reveal);
  if ((parser.isSet(lesson_moment) || o.lesson_reveal || !o.lesson_tally.isEmpty()) &&
      o.lesson.isEmpty()) {
    *error = QStringLiteral("--moment, --tally and --reveal go with --lesson");
    return std::nullopt;
  }
  o.add_moment = parser.value(add_moment);
  o.lesson_out = parser.value(lesson_out);
  if (parser.isSet(moment_view)) o.moment_view = parser.value(moment_view);
  if (!kLessonViews.empty() && std::find(kLessonViews.begin(), kLessonViews.end(),
                                         o.moment_view.toStdString()) == kLessonViews.end()) {
    *error = QStringLiteral(
                 "--moment-view must be attention, heads, decoding, encoding, curves "
                 "or sample, got \"%1\"")
                 .arg(o.moment_view);
    return std::nullopt;
  }
  if (!o.add_moment.isEmpty() && (o.open_dir.isEmpty() || o.lesson_out.isEmpty())) {
    *error = QStringLiteral("--add-moment needs --open (the run) and --lesson-out (the lesson)");
    return std::nullopt;
  }
  if ((parser.isSet(hide_query) || parser.isSet(moment_view) || !o.lesson_out.isEmpty()) &&
      o.add_moment.isEmpty()) {
    *error = QStringLiteral("--lesson-out, --hide-query and --moment-view go with --add-moment");
    return std::nullopt;
  }
  if (!o.lesson.isEmpty() && (!o.open_dir.isEmpty() || o.train_steps > 0)) {
    *error = QStringLiteral("--lesson opens its own runs: leave out --open and --train-steps");
    return std::nullopt;
  }
  if (!o.compare_dir.isEmpty() && o.open_dir.isEmpty()) {
    *error = QStringLiteral("--compare needs --open: the opened run is A of the comparison");
    return std::nullopt;
  }
  if (QString problem =
          parseComputationOptions(parser, computation, computation_cell, computation_stage, &o);
      !problem.isEmpty()) {
    *error = problem;
    return std::nullopt;
  }
  if (QString problem = parseVideoOptions(parser, export_video, video_view, video_layer, video_head,
                                          video_fps, &o);
      !problem.isEmpty()) {
    *error = problem;
    return std::nullopt;
  }
  if (!o.open_dir.isEmpty() && o.train_steps > 0) {
    *error = QStringLiteral("give either --open or --train-steps, not both");
    return std::nullopt;
  }
  return o;
}

}  // namespace ascope
