// End to end: the real attentionscope binary in scripted mode trains each task for a few steps on
// the tiny preset, writes a screenshot of the whole window and a report of what every panel shows,
// then opens the run folder it wrote. Run offscreen (QT_QPA_PLATFORM=offscreen).
#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <set>

#include "engine/runfolder/metrics/metrics_csv_reader.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "offscreen_app.h"
#include "tests/support/comma_locale.h"

namespace ascope {

class ScriptedModeTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void trainsEachTask_data();
  void trainsEachTask();
  void opensTheRunItWrote();
  void aLessonAsksAMinimalPairOfTheRunItWrote();
  void failsWithAMessage();
  void aDecimalCommaLocaleChangesNoNumberOfTheRun();
  void versionAndHelpNeedNoDisplay();

 private:
  struct Result {
    int exit_code = -1;
    QString output;
    QJsonObject report;
  };
  Result run(const QStringList& arguments, const QString& report_path);
  static void checkScreenshot(const QString& path, QSize size);

  QTemporaryDir dir_;
  QString vit_run_;
};

void ScriptedModeTest::initTestCase() {
  QVERIFY(dir_.isValid());
}

ScriptedModeTest::Result ScriptedModeTest::run(const QStringList& arguments,
                                               const QString& report_path) {
  const test::AppOutcome outcome = test::runOffscreenApp(arguments, dir_.path(), 300000);
  Result result;
  result.exit_code = outcome.exit_code;
  result.output = outcome.output;
  QFile file(report_path);
  if (!report_path.isEmpty() && file.open(QIODevice::ReadOnly)) {
    result.report = QJsonDocument::fromJson(file.readAll()).object();
  }
  return result;
}

void ScriptedModeTest::checkScreenshot(const QString& path, QSize size) {
  QImage image;
  QVERIFY2(image.load(path, "PNG"), qPrintable(path));
  QCOMPARE(image.size(), size);
  // Not a blank window: many distinct colours (curves, heatmaps, text).
  std::set<QRgb> colours;
  for (int y = 0; y < image.height(); y += 7) {
    for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
  }
  QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
}

void ScriptedModeTest::trainsEachTask_data() {
  QTest::addColumn<QString>("task");
  QTest::addColumn<int>("groups");
  QTest::newRow("image") << QString::fromLatin1(kImageClassificationTaskId) << 1;
  QTest::newRow("translation") << QString::fromLatin1(kTranslationTaskId) << 3;
  QTest::newRow("sentiment") << QString::fromLatin1(kSentimentTaskId) << 1;
}

void ScriptedModeTest::trainsEachTask() {
  QFETCH(QString, task);
  QFETCH(int, groups);
  const QString shot = dir_.filePath(task + QStringLiteral(".png"));
  const QString report = dir_.filePath(task + QStringLiteral(".json"));
  const QString out = dir_.filePath(QStringLiteral("run_") + task);
  QStringList arguments{"--task",        task,       "--data",   "builtin", "--preset",     "tiny",
                        "--train-steps", "30",       "--out",    out,       "--screenshot", shot,
                        "--size",        "1280x800", "--report", report,    "--quit"};
  const bool text = task != QLatin1String(kImageClassificationTaskId);
  // "Try it" on the newest checkpoint: its attention goes under the scope.
  if (text) {
    arguments << "--ask"
              << "the black cat";
  } else {
    QImage image(40, 40, QImage::Format_RGB888);
    image.fill(QColor(200, 40, 40));
    QVERIFY(image.save(dir_.filePath(QStringLiteral("red.png"))));
    arguments << "--ask" << dir_.filePath(QStringLiteral("red.png"));
  }
  const Result r = run(arguments, report);
  QVERIFY2(r.exit_code == 0, qPrintable(r.output));
  QVERIFY2(r.output.contains(QStringLiteral("throughput:")), qPrintable(r.output));
  QVERIFY(r.output.contains(QStringLiteral("longest stall")));
  checkScreenshot(shot, QSize(1280, 800));

  QCOMPARE(r.report["steps"].toInt(), 30);
  QVERIFY(r.report["samples_per_s_mean"].toDouble() > 0);
  QVERIFY(r.report["window_title"].toString().contains(QStringLiteral("run_") + task));
  const QJsonObject panels = r.report["panels"].toObject();
  QCOMPARE(panels["loss_points"].toInt(), 30);
  QCOMPARE(panels["accuracy_points"].toInt(), 30);
  QVERIFY(panels["loss_validation_points"].toInt() >= 1);
  QCOMPARE(panels["attention_groups"].toInt(), groups);
  QVERIFY(panels["attention_heads"].toInt() >= 2);
  QVERIFY(panels["attention_timeline"].toInt() >= 1);
  QVERIFY(panels["positional_encoding_rows"].toInt() > 0);
  QVERIFY(panels["sample_shown"].toBool());
  QVERIFY(panels["log_lines"].toInt() > 0);
  QVERIFY(QFile::exists(out + QStringLiteral("/metrics.csv")));
  QVERIFY2(r.report["answer"].toString().contains(QStringLiteral("checkpoint at step 30")),
           qPrintable(r.output));
  QVERIFY2(panels["attention_asked"].toBool(), qPrintable(r.output));
  const QJsonArray keys = panels["attention_key_labels"].toArray();
  QVERIFY(!keys.isEmpty());
  if (task == QLatin1String(kSentimentTaskId)) {
    QCOMPARE(keys.size(), 3);  // "the black cat": its own three tokens, not the probe review's
  }
  if (task == QLatin1String(kImageClassificationTaskId)) vit_run_ = out;
}

void ScriptedModeTest::opensTheRunItWrote() {
  if (vit_run_.isEmpty()) QSKIP("the vit run did not complete");
  const QString shot = dir_.filePath(QStringLiteral("open.png"));
  const QString report = dir_.filePath(QStringLiteral("open.json"));
  const QString figures = dir_.filePath(QStringLiteral("figures"));
  const Result r = run({"--open", vit_run_, "--step", "12", "--export-dir", figures, "--screenshot",
                        shot, "--size", "1280x800", "--report", report, "--quit"},
                       report);
  QVERIFY2(r.exit_code == 0, qPrintable(r.output));
  checkScreenshot(shot, QSize(1280, 800));
  const QJsonObject panels = r.report["panels"].toObject();
  QCOMPARE(panels["loss_points"].toInt(), 30);
  QVERIFY(panels["loss_validation_points"].toInt() >= 1);
  QCOMPARE(panels["attention_groups"].toInt(), 1);
  QVERIFY(panels["attention_timeline"].toInt() >= 1);
  QVERIFY(panels["positional_encoding_rows"].toInt() > 0);  // recomputed from the checkpoint
  QVERIFY(panels["log_lines"].toInt() > 0);                 // log.txt
  // --step: every dock at the stored snapshot nearest step 12, and the exports show it.
  const double shown = panels["attention_step"].toDouble();
  QVERIFY2(shown > 0 && shown < 30, qPrintable(r.output));
  QVERIFY2(r.output.contains(QStringLiteral("showing step %1").arg(shown)), qPrintable(r.output));
  QCOMPARE(panels["loss_cursor_step"].toDouble(), shown);
  QCOMPARE(panels["accuracy_cursor_step"].toDouble(), shown);
  QVERIFY(panels["sample_shown"].toBool());
  for (const char* name : {"loss.png", "loss.svg", "accuracy.pdf", "sample.png"}) {
    QVERIFY2(QFileInfo(QDir(figures).filePath(QString::fromLatin1(name))).size() > 0, name);
  }
}

void ScriptedModeTest::aLessonAsksAMinimalPairOfTheRunItWrote() {
  const QString run_dir = dir_.filePath(QStringLiteral("run_") + QLatin1String(kSentimentTaskId));
  if (!QFile::exists(run_dir + QStringLiteral("/metrics.csv"))) QSKIP("no sentiment run");
  // A lesson beside the run: its first moment is a typed minimal pair, its second a hidden head.
  const QString lesson = dir_.filePath(QStringLiteral("pair_lesson.json"));
  QFile file(lesson);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(QStringLiteral(R"({"format": 1, "title": "pairs", "moments": [
    {"run": "run_%1", "text": "the film is truly superb", "pair_text": "the film is truly lifeless", "head": 1,
     "question": "Which head moves?"},
    {"run": "run_%1", "step": -1, "query": 1, "hidden": true, "question": "Guess"}]})")
                 .arg(QLatin1String(kSentimentTaskId))
                 .toUtf8());
  file.close();
  const QString report = dir_.filePath(QStringLiteral("pair.json"));
  const Result pair =
      run({"--lesson", lesson, "--moment", "1", "--report", report, "--quit"}, report);
  QVERIFY2(pair.exit_code == 0, qPrintable(pair.output));
  QVERIFY2(pair.output.contains(QStringLiteral("moment 1: Which head moves?")),
           qPrintable(pair.output));
  const QJsonObject panels = pair.report["panels"].toObject();
  QVERIFY2(panels["attention_pair"].toBool(), qPrintable(pair.output));
  const double change = panels["attention_pair_most_changed"].toDouble();
  QVERIFY2(change > 0 && change <= 1,
           qPrintable(pair.output + QJsonDocument(panels).toJson(QJsonDocument::Compact)));

  const Result hidden = run({"--lesson", lesson, "--moment", "2", "--tally", "cat 3, the 1",
                             "--reveal", "--report", report, "--quit"},
                            report);
  QVERIFY2(hidden.exit_code == 0, qPrintable(hidden.output));
  QVERIFY(!hidden.report["panels"].toObject()["attention_pair"].toBool());
  QCOMPARE(hidden.report["panels"].toObject()["attention_round"].toString(),
           QStringLiteral("revealed"));
  QVERIFY2(hidden.output.contains(QStringLiteral("moment 2: Guess")), qPrintable(hidden.output));
}

void ScriptedModeTest::failsWithAMessage() {
  const Result missing = run({"--task", kImageClassificationTaskId, "--data",
                              dir_.filePath("no_such_dataset"), "--train-steps", "5", "--quit"},
                             {});
  QVERIFY2(missing.exit_code != 0, qPrintable(missing.output));
  QVERIFY2(missing.output.contains(QStringLiteral("no such file")), qPrintable(missing.output));
  const Result bad = run({"--task", "chess", "--quit"}, {});
  QCOMPARE(bad.exit_code, 2);
  QVERIFY(bad.output.contains(QStringLiteral("--task")));
  const Result not_a_run = run({"--open", dir_.path(), "--quit"}, {});
  QVERIFY2(not_a_run.exit_code != 0, qPrintable(not_a_run.output));
}

// help2man reads both while the package is built, on a machine without a display: they must be
// answered before QApplication, which would abort there. The version is CMakeLists.txt's.
void ScriptedModeTest::versionAndHelpNeedNoDisplay() {
  QProcessEnvironment no_display;
  no_display.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
  no_display.insert(QStringLiteral("DISPLAY"), QString());
  no_display.insert(QStringLiteral("WAYLAND_DISPLAY"), QString());
  const test::AppOutcome version =
      test::runOffscreenApp({QStringLiteral("--version")}, dir_.path(), 60000, no_display);
  QCOMPARE(version.exit_code, 0);
  QCOMPARE(version.output, QStringLiteral("attentionscope " ATTENTIONSCOPE_PROJECT_VERSION "\n"));
  const test::AppOutcome help =
      test::runOffscreenApp({QStringLiteral("--help")}, dir_.path(), 60000, no_display);
  QCOMPARE(help.exit_code, 0);
  QVERIFY2(help.output.startsWith(QStringLiteral("Usage: ")), qPrintable(help.output));
  QVERIFY2(help.output.contains(QStringLiteral("--version")), qPrintable(help.output));
  // Without --help or --version the same environment does need the display: the check above
  // would otherwise prove nothing.
  const test::AppOutcome window =
      test::runOffscreenApp({QStringLiteral("--quit")}, dir_.path(), 60000, no_display);
  QVERIFY2(window.exit_code != 0, qPrintable(window.output));
}

void ScriptedModeTest::aDecimalCommaLocaleChangesNoNumberOfTheRun() {
  // QApplication sets LC_NUMERIC from the environment: under a decimal-comma locale the GUI wrote
  // "0,5" into metrics.csv, which no reader takes back.
  const std::string locale =
      testing::makeCommaLocale(dir_.filePath(QStringLiteral("locale")).toStdString());
  if (locale.empty()) QSKIP("localedef could not make a decimal-comma locale here");
  qputenv("LOCPATH", dir_.filePath(QStringLiteral("locale")).toLocal8Bit());
  qputenv("LC_ALL", QByteArray::fromStdString(locale));
  const QString out = dir_.filePath(QStringLiteral("run_comma"));
  const Result r = run({"--task", kSentimentTaskId, "--data", "builtin", "--preset", "tiny",
                        "--train-steps", "12", "--out", out, "--quit"},
                       {});
  qunsetenv("LC_ALL");
  qunsetenv("LOCPATH");
  QVERIFY2(r.exit_code == 0, qPrintable(r.output));
  Expected<MetricsCsv> metrics =
      readMetricsCsv((out + QStringLiteral("/metrics.csv")).toStdString());
  QVERIFY2(metrics.ok(), metrics.ok() ? "" : metrics.error().c_str());
  // QVERIFY2 evaluates its message whether or not the check fails.
  QVERIFY2(metrics->warnings.empty(),
           metrics->warnings.empty() ? "" : metrics->warnings.front().c_str());
  int train_rows = 0;
  for (const MetricsRow& row : metrics->rows) train_rows += row.split == "train" ? 1 : 0;
  QCOMPARE(train_rows, 12);
}

}  // namespace ascope

QTEST_GUILESS_MAIN(ascope::ScriptedModeTest)
#include "scripted_mode_test.moc"
