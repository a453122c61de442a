// The window on a 1280 x 720 laptop and on a 1920 x 1080 projector at 150 % (the same
// logical size, a different screen). The real binary runs offscreen on a screen of that size and
// reports what it measured of its own widgets (the scripted --report's "layout"): every run
// control visible without scrolling, curves a readable height, no text cut off. For a fresh
// window and for an opened run of each task.
#include <algorithm>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "offscreen_app.h"

namespace ascope {
namespace {

/// Below this a loss or accuracy plot cannot be read (the issue measured 30–40 px).
constexpr int kReadableCurvePx = 150;
/// The enlarged head's cells in the Train workspace at 1280 × 720 (it measured ~45 px
/// square, its title and axes cut, "collapsed to a glyph" at a zoomed font).
constexpr int kEnlargedHeadPx = 240;
/// A translation's cross-attention is wider than tall (source tokens × "fed → predicts" rows,
/// whose labels are long), its shape the probe sentence's: its longer side.
constexpr int kEnlargedCrossHeadPx = 170;

struct Screen {
  QString name;
  QSize physical;
  double scale = 1.0;
};

Screen screenNamed(const QString& name) {
  if (name == QLatin1String("projector")) return {name, QSize(1920, 1080), 1.5};
  // The smallest screen the run controls must stay in reach on (a netbook, a tablet's dock).
  if (name == QLatin1String("small")) return {name, QSize(1024, 600), 1.0};
  return {QStringLiteral("laptop"), QSize(1280, 720), 1.0};
}

QSize logicalSize(const Screen& s) {
  return QSize(qRound(s.physical.width() / s.scale), qRound(s.physical.height() / s.scale));
}

QString describeMisfits(const QJsonObject& layout) {
  QStringList lines;
  for (const QJsonValue& m : layout[QStringLiteral("texts_not_fitting")].toArray()) {
    lines << QStringLiteral("%1 %2: \"%3\" needs %4, has %5")
                 .arg(m[QStringLiteral("kind")].toString(), m[QStringLiteral("widget")].toString(),
                      m[QStringLiteral("text")].toString())
                 .arg(m[QStringLiteral("needed")].toInt())
                 .arg(m[QStringLiteral("available")].toInt());
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace

class LayoutReportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void freshWindowFits_data();
  void freshWindowFits();
  void openedRunFits_data();
  void openedRunFits();
  void comparisonWindowFits_data();
  void comparisonWindowFits();

 private:
  /// Runs the binary on `screen` with the window filling it; the report's layout object.
  QJsonObject layoutOn(const Screen& screen, QStringList arguments, const QString& name);
  static void checkFits(const QJsonObject& layout, const Screen& screen, bool curves_shown);

  QTemporaryDir dir_;
  QHash<QString, QString> runs_;  ///< task id → run folder
};

void LayoutReportTest::initTestCase() {
  QVERIFY(dir_.isValid());
  for (const char* task : {kImageClassificationTaskId, kSentimentTaskId, kTranslationTaskId}) {
    const QString id = QString::fromLatin1(task);
    const QString out = dir_.filePath(QStringLiteral("run_") + id);
    const test::AppOutcome trained = test::runOffscreenApp(
        {"--task", id, "--preset", "tiny", "--train-steps", "20", "--out", out, "--quit"},
        dir_.path(), 300000);
    QVERIFY2(trained.exit_code == 0, qPrintable(trained.output));
    runs_.insert(id, out);
  }
}

QJsonObject LayoutReportTest::layoutOn(const Screen& screen, QStringList arguments,
                                       const QString& name) {
  const QString config = dir_.filePath(screen.name + QStringLiteral("_screen.json"));
  QFile file(config);
  if (!file.exists()) {
    const QJsonObject one{{QStringLiteral("name"), screen.name},
                          {QStringLiteral("x"), 0},
                          {QStringLiteral("y"), 0},
                          {QStringLiteral("width"), screen.physical.width()},
                          {QStringLiteral("height"), screen.physical.height()},
                          {QStringLiteral("logicalDpi"), 96},
                          {QStringLiteral("logicalBaseDpi"), 96},
                          {QStringLiteral("dpr"), 1}};
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("screens"), QJsonArray{one}}}).toJson());
    file.close();
  }
  QProcessEnvironment env;
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen:configfile=") + config);
  env.insert(QStringLiteral("QT_SCALE_FACTOR"), QString::number(screen.scale));
  const QSize size = logicalSize(screen);
  const QString report = dir_.filePath(name + QStringLiteral(".json"));
  arguments << "--size" << QStringLiteral("%1x%2").arg(size.width()).arg(size.height())
            << "--report" << report << "--screenshot"
            << dir_.filePath(name + QStringLiteral(".png")) << "--quit";
  const test::AppOutcome outcome = test::runOffscreenApp(arguments, dir_.path(), 120000, env);
  if (outcome.exit_code != 0) {
    qWarning("%s", qPrintable(outcome.output));
    return {};
  }
  QFile json(report);
  if (!json.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(json.readAll()).object()[QStringLiteral("layout")].toObject();
}

void LayoutReportTest::checkFits(const QJsonObject& layout, const Screen& screen,
                                 bool curves_shown) {
  QVERIFY2(!layout.isEmpty(), "no layout report");
  const QSize logical = logicalSize(screen);
  QCOMPARE(layout["screen"]["width"].toInt(), logical.width());
  QCOMPARE(layout["screen"]["height"].toInt(), logical.height());
  QCOMPARE(layout["screen"]["device_pixel_ratio"].toDouble(), screen.scale);
  QCOMPARE(layout["window"]["width"].toInt(), logical.width());
  QCOMPARE(layout["window"]["height"].toInt(), logical.height());
  // The window can be made as small as the screen.
  QVERIFY2(layout["minimum_window"]["width"].toInt() <= logical.width() &&
               layout["minimum_window"]["height"].toInt() <= logical.height(),
           qPrintable(QJsonDocument(layout["minimum_window"].toObject()).toJson()));
  const QJsonObject controls = layout["run_controls"].toObject();
  for (const char* control :
       {"start", "pause", "step", "stop", "progress", "state", "learning_rate"}) {
    QVERIFY2(controls[QString::fromLatin1(control)].toBool(), control);
  }
  QVERIFY(!layout["docks"].toArray().isEmpty());
  if (curves_shown) {
    const int curve = layout["smallest_curve_plot_height"].toInt();
    QVERIFY2(curve >= kReadableCurvePx, qPrintable(QString::number(curve)));
  }
  QVERIFY2(layout["clipped_count"].toInt() == 0, qPrintable(describeMisfits(layout)));
  QVERIFY2(layout["all_windows_fit"].toBool(),
           qPrintable(QJsonDocument(layout["windows"].toArray()).toJson()));
}

void LayoutReportTest::freshWindowFits_data() {
  QTest::addColumn<QString>("screen");
  QTest::newRow("laptop 1280x720") << QStringLiteral("laptop");
  QTest::newRow("projector 1920x1080 at 150%") << QStringLiteral("projector");
  QTest::newRow("small 1024x600") << QStringLiteral("small");
}

void LayoutReportTest::freshWindowFits() {
  QFETCH(QString, screen);
  const Screen s = screenNamed(screen);
  const QJsonObject layout = layoutOn(s, {}, QStringLiteral("fresh_") + screen);
  checkFits(layout, s, true);
}

void LayoutReportTest::openedRunFits_data() {
  QTest::addColumn<QString>("task");
  QTest::addColumn<QString>("screen");
  for (const char* task : {kImageClassificationTaskId, kSentimentTaskId, kTranslationTaskId}) {
    for (const char* screen : {"laptop", "projector", "small"}) {
      QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(task, screen)))
          << QString::fromLatin1(task) << QString::fromLatin1(screen);
    }
  }
}

void LayoutReportTest::openedRunFits() {
  QFETCH(QString, task);
  QFETCH(QString, screen);
  QVERIFY(runs_.contains(task));
  const Screen s = screenNamed(screen);
  const QJsonObject layout =
      layoutOn(s, {"--open", runs_.value(task)}, QStringLiteral("open_%1_%2").arg(task, screen));
  checkFits(layout, s, true);
  if (s.name == QLatin1String("small")) return;  // there the attention takes turns with the rest
  const QJsonObject head = layout["enlarged_head"].toObject();
  const int shorter = std::min(head["width"].toInt(), head["height"].toInt());
  const int longer = std::max(head["width"].toInt(), head["height"].toInt());
  const QByteArray size = QJsonDocument(head).toJson(QJsonDocument::Compact);
  if (task == QLatin1String(kTranslationTaskId)) {
    QVERIFY2(longer >= kEnlargedCrossHeadPx, size.constData());
  } else {
    QVERIFY2(shorter >= kEnlargedHeadPx, size.constData());
  }
}

// File → Compare opened at 1600 × 1000 on a 1280 × 720 screen (2400 × 1500 px at
// 150 %): the A − B map and the close button were off screen.
void LayoutReportTest::comparisonWindowFits_data() {
  QTest::addColumn<QString>("screen");
  QTest::newRow("laptop 1280x720") << QStringLiteral("laptop");
  QTest::newRow("projector 1920x1080 at 150%") << QStringLiteral("projector");
}

void LayoutReportTest::comparisonWindowFits() {
  QFETCH(QString, screen);
  const Screen s = screenNamed(screen);
  const QString run = runs_.value(QString::fromLatin1(kSentimentTaskId));
  const QJsonObject layout =
      layoutOn(s, {"--open", run, "--compare", run}, QStringLiteral("compare_") + screen);
  QVERIFY2(!layout.isEmpty(), "no layout report");
  const QJsonArray windows = layout["windows"].toArray();
  QVERIFY2(!windows.isEmpty(), "the comparison window is not shown");
  QVERIFY2(layout["all_windows_fit"].toBool(), qPrintable(QJsonDocument(windows).toJson()));
}

}  // namespace ascope

QTEST_MAIN(ascope::LayoutReportTest)
#include "layout_report_test.moc"
