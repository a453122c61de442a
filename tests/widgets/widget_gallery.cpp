// Manual demo of every panel with fake data, in one 1600x1000 window with a page per task.
//   widget_gallery                         interactive, training curves keep growing
//   widget_gallery --dark                  with a dark palette
//   widget_gallery --page vision --screenshot out.png   save one page and quit
//   widget_gallery --page heads            head statistics and ablation
//   widget_gallery --panel-dir DIR         save every panel (grab + 1600x1000 export) and quit

#include "fake_data.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/common/log_panel.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/encoding/positional_encoding_panel.h"
#include "widgets/samples/sample_panel.h"
#include "widgets/tables/head_ablation_table.h"
#include "widgets/tables/head_stats_grid_panel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QSplitter>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

namespace {

using namespace ascope;

struct Gallery {
  QTabWidget tabs;
  MetricCurvePanel* loss = nullptr;
  MetricCurvePanel* accuracy = nullptr;
  SamplePanel* image_sample = nullptr;
  LogPanel* log = nullptr;
  AttentionHeadGridPanel* translation_attention = nullptr;
  PositionalEncodingPanel* sinusoidal = nullptr;
  SamplePanel* translation_sample = nullptr;
  AttentionHeadGridPanel* vision_attention = nullptr;
  PositionalEncodingPanel* learned = nullptr;
  SamplePanel* text_sample = nullptr;
  MetricCurvePanel* empty_curve = nullptr;
  AttentionHeadGridPanel* empty_attention = nullptr;
  HeadStatsGridPanel* head_stats = nullptr;
  HeadAblationTable* head_ablation = nullptr;

  Gallery() {
    // Training: curves, the probe image, the log
    auto* training = new QSplitter(Qt::Horizontal);
    auto* curves = new QSplitter(Qt::Vertical, training);
    loss = new MetricCurvePanel(QStringLiteral("loss"), curves);
    accuracy = new MetricCurvePanel(QStringLiteral("accuracy"), curves);
    auto* side = new QSplitter(Qt::Vertical, training);
    image_sample = new SamplePanel(side);
    log = new LogPanel(side);
    training->setSizes({1000, 600});
    side->setSizes({550, 450});
    tabs.addTab(training, QStringLiteral("Training"));

    // Translation: attention groups, sinusoidal PE, the sentence pair
    auto* translation = new QSplitter(Qt::Horizontal);
    translation_attention = new AttentionHeadGridPanel(translation);
    auto* right = new QSplitter(Qt::Vertical, translation);
    sinusoidal = new PositionalEncodingPanel(right);
    translation_sample = new SamplePanel(right);
    translation->setSizes({1000, 600});
    right->setSizes({600, 400});
    tabs.addTab(translation, QStringLiteral("Translation"));

    // Vision: ViT attention with CLS overlay, learned patch embeddings, a review sample
    auto* vision = new QSplitter(Qt::Horizontal);
    vision_attention = new AttentionHeadGridPanel(vision);
    auto* vright = new QSplitter(Qt::Vertical, vision);
    learned = new PositionalEncodingPanel(vright);
    text_sample = new SamplePanel(vright);
    vision->setSizes({1000, 600});
    vright->setSizes({650, 350});
    tabs.addTab(vision, QStringLiteral("Vision"));

    // Empty states
    auto* empty = new QSplitter(Qt::Horizontal);
    empty_curve = new MetricCurvePanel(QStringLiteral("loss"), empty);
    empty_attention = new AttentionHeadGridPanel(empty);
    new PositionalEncodingPanel(empty);
    new SamplePanel(empty);
    tabs.addTab(empty, QStringLiteral("Empty"));

    // Heads: per-head statistics over training, and an ablation in progress
    auto* heads = new QSplitter(Qt::Horizontal);
    head_stats = new HeadStatsGridPanel(heads);
    head_ablation = new HeadAblationTable(heads);
    heads->setSizes({900, 700});
    tabs.addTab(heads, QStringLiteral("Heads"));
    tabs.resize(1600, 1000);
  }

  void fill() {
    loss->setLogScale(true);
    loss->appendTrainPoints(fake::trainLoss(3000));
    for (const SeriesPoint& p : fake::validationLoss(3000, 500))
      loss->appendValidationPoint(p.x, p.y);
    accuracy->appendTrainPoints(fake::trainAccuracy(3000));
    for (const SeriesPoint& p : fake::validationAccuracy(3000, 500))
      accuracy->appendValidationPoint(p.x, p.y);

    ImagePrediction image{fake::ballImage(), QStringLiteral("ball"), QStringLiteral("apple"),
                          0.62f};
    image_sample->setImagePrediction(image);
    log->appendLine(LogLevel::Info,
                    QStringLiteral("[14:03:22] run folder runs/2026-11-21_14-03-22_vit"));
    log->appendLine(LogLevel::Debug,
                    QStringLiteral("[14:03:22] CIFAR-10: 50000 train, 10000 test images"));
    log->appendLine(
        LogLevel::Info,
        QStringLiteral("[14:03:23] model: ViT 4 layers, 4 heads, d=128, 0.8M parameters"));
    log->appendLine(LogLevel::Warning,
                    QStringLiteral("[14:03:23] CUDA not available, training on CPU"));
    for (int e = 1; e <= 6; ++e)
      log->appendLine(LogLevel::Info,
                      QStringLiteral("[14:0%1:10] epoch %1: train loss %2, val loss %3, val acc %4")
                          .arg(e)
                          .arg(1.9 / e + 0.4, 0, 'f', 3)
                          .arg(1.8 / e + 0.5, 0, 'f', 3)
                          .arg(0.3 + e * 0.08, 0, 'f', 3));
    log->appendLine(LogLevel::Error,
                    QStringLiteral("[14:09:41] checkpoint write failed: disk full (retrying)"));

    translation_attention->setSnapshot(fake::translationAttention(2, 4));
    sinusoidal->setEncoding(fake::sinusoidalEncoding(50, 64));
    translation_sample->setTranslation({QStringLiteral("the black cat sat on the mat ."),
                                        QStringLiteral("le chat noir était assis sur le tapis ."),
                                        QStringLiteral("le chat noir est assis sur la tapis ."),
                                        120});

    vision_attention->setSnapshot(fake::visionAttention(2, 4));
    learned->setEncoding(fake::learnedPatchEncoding(8, 8, 64));
    learned->setCurrentTab(PositionalEncodingPanel::PatchesTab);
    text_sample->setTextPrediction(
        {QStringLiteral("A quiet, patient film that trusts its audience. The two leads are "
                        "wonderful, and the last twenty minutes are among the best I have seen "
                        "this year."),
         QStringLiteral("positive"), QStringLiteral("positive"), 0.94f});

    head_stats->setMetrics(fake::headStatsMetrics());
    head_stats->setStatistics(fake::headStatistics(6, 8, 48, 100));
    head_stats->setNotes(fake::headKindNotes());
    head_stats->setCursorStep(3000);
    head_ablation->setResult(fake::headAblation(6, 8));
    head_ablation->setRunning(true);
    head_ablation->setProgress(97, 162);
  }
};

void settle() {
  // Let queued replots and layout passes run (tick thinning takes one extra replot).
  for (int i = 0; i < 5; ++i) {
    QEventLoop loop;
    QTimer::singleShot(30, &loop, &QEventLoop::quit);
    loop.exec();
  }
}

bool savePanels(Gallery& g, const QString& dir) {
  QDir().mkpath(dir);
  struct Item {
    const char* name;
    QWidget* widget;
    int page;
  };
  const Item items[] = {{"loss", g.loss, 0},
                        {"accuracy", g.accuracy, 0},
                        {"sample_image", g.image_sample, 0},
                        {"log", g.log, 0},
                        {"attention_translation", g.translation_attention, 1},
                        {"pe_sinusoidal", g.sinusoidal, 1},
                        {"sample_translation", g.translation_sample, 1},
                        {"attention_vision", g.vision_attention, 2},
                        {"pe_learned", g.learned, 2},
                        {"sample_text", g.text_sample, 2},
                        {"empty_curve", g.empty_curve, 3},
                        {"empty_attention", g.empty_attention, 3},
                        {"head_stats", g.head_stats, 4},
                        {"head_ablation", g.head_ablation, 4}};
  bool ok = true;
  for (const Item& item : items) {
    g.tabs.setCurrentIndex(item.page);
    settle();
    ok &= item.widget->grab().save(QDir(dir).filePath(QString::fromLatin1(item.name) + ".png"));
    if (auto* exportable = dynamic_cast<Exportable*>(item.widget)) {
      const QString path = QDir(dir).filePath(QString::fromLatin1(item.name) + "_export.png");
      const ExportResult r = exportable->exportImage(path, ImageFormat::Png, ExportSize{});
      if (!r.ok()) std::fprintf(stderr, "%s\n", qPrintable(r.error));
      ok &= r.ok();
    }
  }
  const char* pe_tabs[] = {"encoding", "dimensions", "similarity", "patches"};
  for (auto* pe : {g.sinusoidal, g.learned}) {
    g.tabs.setCurrentIndex(pe == g.sinusoidal ? 1 : 2);
    for (int t = 0; t < 4; ++t) {
      if (t == PositionalEncodingPanel::PatchesTab && !pe->isPatchTabAvailable()) continue;
      pe->setCurrentTab(static_cast<PositionalEncodingPanel::Tab>(t));
      settle();
      const QString name =
          QStringLiteral("pe_%1_%2").arg(pe == g.sinusoidal ? "sinusoidal" : "learned", pe_tabs[t]);
      ok &= pe->grab().save(QDir(dir).filePath(name + ".png"));
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  QCommandLineParser parser;
  parser.addHelpOption();
  const QCommandLineOption screenshot("screenshot", "Save the page as PNG and quit.", "path");
  const QCommandLineOption page("page", "training, translation, vision, empty or heads.", "name",
                                "training");
  const QCommandLineOption panel_dir("panel-dir", "Save every panel into a folder and quit.",
                                     "dir");
  const QCommandLineOption dark("dark", "Use a dark palette.");
  parser.addOptions({screenshot, page, panel_dir, dark});
  parser.process(app);
  if (parser.isSet(dark)) QApplication::setPalette(fake::darkPalette());

  Gallery gallery;
  gallery.tabs.setWindowTitle(QStringLiteral("AttentionScope widget gallery"));
  gallery.fill();
  const QStringList pages{"training", "translation", "vision", "empty", "heads"};
  gallery.tabs.setCurrentIndex(std::max(0, static_cast<int>(pages.indexOf(parser.value(page)))));
  gallery.tabs.show();

  if (parser.isSet(screenshot) || parser.isSet(panel_dir)) {
    settle();
    bool ok = true;
    if (parser.isSet(screenshot)) ok &= gallery.tabs.grab().save(parser.value(screenshot));
    if (parser.isSet(panel_dir)) ok &= savePanels(gallery, parser.value(panel_dir));
    return ok ? 0 : 1;
  }

  // Interactive: keep the curves growing like a live run (about 30 updates per second).
  int step = 3000;
  QTimer live;
  QObject::connect(&live, &QTimer::timeout, gallery.loss, [&] {
    std::vector<SeriesPoint> batch;
    for (int i = 0; i < 10; ++i, ++step)
      batch.push_back(
          {double(step), 0.35 + 0.1 * std::sin(step * 0.01) + 0.05 * ((step * 7919) % 13) / 13.0});
    gallery.loss->appendTrainPoints(batch);
  });
  live.start(33);
  return app.exec();
}
