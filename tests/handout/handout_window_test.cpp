// The window's side of the handout: File → Export for students… writes the same page as
// `attentionscope-cli handout`, in the background, and Cancel leaves nothing; the page draws with
// the window's colours (the viridis levels of the Run scale, masked cells, the curves' colours).
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QPalette>
#include <QSignalSpy>
#include <QWidget>
#include <QtTest>

#include <string>

#include "app/gui/bridge/current_run.h"
#include "app/gui/window/export/handout_export_actions.h"
#include "app/gui/window/lecture/dark_palette.h"
#include "app/gui/window/lecture/high_contrast_palette.h"
#include "engine/handout/handout_packer.h"
#include "engine/handout/handout_page_resources.h"
#include "engine/handout/handout_writer.h"
#include "engine/tasks/registry/task_registry.h"
#include "tests/handout/synthetic_run.h"
#include "widgets/attention/attention_head_display.h"
#include "widgets/common/plot_theme.h"
#include "widgets/common/qcustomplot_include.h"

namespace ascope {

class HandoutWindowTest : public QObject {
  Q_OBJECT

 private:
  static QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
  }
  /// The CSS block of one of the page's themes.
  static std::string themeBlock(const std::string& theme) {
    const std::string css(handoutStyle());
    const std::size_t begin = css.find("html[data-theme=\"" + theme + "\"] {");
    return begin == std::string::npos ? "" : css.substr(begin, css.find('}', begin) - begin);
  }

 private Q_SLOTS:
  void exportWritesWhatTheCliWrites() {
    testing::TempFolder tmp;
    testing::writeSyntheticRun(tmp.path("run"));
    CurrentRun run;
    run.showOpened(TrainingConfig{}, QString::fromStdString(tmp.path("run")));
    QWidget window;
    HandoutExportActions actions(&run, &window);
    QCOMPARE(actions.action()->objectName(), QStringLiteral("exportHandout"));
    QSignalSpy done(&actions, &HandoutExportActions::exported);
    QSignalSpy progress(actions.job(), &HandoutExportJob::progress);
    const QString path = QString::fromStdString(tmp.path("from_window.html"));
    QVERIFY(actions.startWithProgress(path, 20));
    QVERIFY(actions.progressDialog() != nullptr);
    QVERIFY(!actions.startWithProgress(path, 20));  // one at a time
    QVERIFY(done.wait(30000));
    QCOMPARE(done.takeFirst().at(0).toBool(), true);
    QVERIFY(progress.count() > 12);  // every snapshot read twice

    HandoutOptions options;
    options.theme = actions.windowTheme().toStdString();
    options.task_of = [](const std::string& id) { return TaskRegistry::instance().find(id); };
    const Expected<HandoutSummary> cli =
        writeHandout(tmp.path("run"), tmp.path("from_cli.html"), options);
    QVERIFY2(cli.ok(), cli.ok() ? "" : cli.error().c_str());
    const QByteArray window_page = readAll(path);
    QVERIFY(!window_page.isEmpty());
    QCOMPARE(window_page, readAll(QString::fromStdString(tmp.path("from_cli.html"))));
  }

  void cancelLeavesNoFile() {
    testing::TempFolder tmp;
    testing::SyntheticRunOptions big;
    big.snapshots = 80;
    big.tokens = 32;
    testing::writeSyntheticRun(tmp.path("run"), big);
    CurrentRun run;
    run.showOpened(TrainingConfig{}, QString::fromStdString(tmp.path("run")));
    QWidget window;
    HandoutExportActions actions(&run, &window);
    QSignalSpy done(&actions, &HandoutExportActions::exported);
    const QString path = QString::fromStdString(tmp.path("cancelled.html"));
    QVERIFY(actions.startWithProgress(path, 20));
    actions.job()->cancel();
    QVERIFY(done.wait(30000));
    QCOMPARE(done.takeFirst().at(0).toBool(), false);
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(QString::fromStdString(tmp.path())).entryList(QDir::Files).size(), 0);
  }

  void themeFollowsTheWindow() {
    CurrentRun run;
    QWidget window;
    HandoutExportActions actions(&run, &window);
    window.setPalette(darkPalette());
    QCOMPARE(actions.windowTheme(), QStringLiteral("dark"));
    window.setPalette(highContrastPalette());
    QCOMPARE(actions.windowTheme(), QStringLiteral("contrast"));
    QVERIFY(!actions.startWithProgress(QStringLiteral("/tmp/x.html"), 20));  // no run shown
  }

  void pageColoursAreTheWindows() {
    // The same weight gets the same colour: the page's 256 levels are the window's gradient.
    const std::vector<std::uint8_t> levels = HandoutPacker::viridisLevels();
    QCPColorGradient gradient = PlotTheme::sequentialGradient();  // color() fills its cache
    for (int i = 0; i < 256; ++i) {
      const QRgb window = gradient.color((i + 0.5) / 255.0, QCPRange(0, 1));
      QCOMPARE(int(levels[3 * i]), qRed(window));
      QCOMPARE(int(levels[3 * i + 1]), qGreen(window));
      QCOMPARE(int(levels[3 * i + 2]), qBlue(window));
    }
    // Masked cells, the curves' colours, in the light and the dark theme.
    for (const bool dark : {false, true}) {
      QPalette palette = dark ? darkPalette() : QApplication::palette();
      if (!dark) palette.setColor(QPalette::Base, Qt::white);
      const PlotTheme theme = PlotTheme::fromPalette(palette, QApplication::font());
      const std::string block = themeBlock(dark ? "dark" : "light");
      QVERIFY(!block.empty());
      const auto has = [&](const char* name, const QColor& color) {
        const std::string line = std::string(name) + ": " + color.name().toStdString() + ";";
        if (block.find(line) == std::string::npos)
          qWarning("missing %s in the page's CSS", line.c_str());
        return block.find(line) != std::string::npos;
      };
      QVERIFY(has("--masked", AttentionHeadDisplay::maskedColor(theme)));
      QVERIFY(has("--train", theme.smoothed));
      QVERIFY(has("--validation", theme.validation));
      QVERIFY(has("--good", theme.good));
      QVERIFY(has("--bad", theme.bad));
    }
    const std::string contrast = themeBlock("contrast");
    QVERIFY(contrast.find("--surface: #000000;") != std::string::npos);
    QVERIFY(contrast.find("--text: #ffffff;") != std::string::npos);
    QVERIFY(contrast.find("--accent: #ffd700;") != std::string::npos);
  }
};

}  // namespace ascope

QTEST_MAIN(ascope::HandoutWindowTest)
#include "handout_window_test.moc"
