// LogPanel: bounded, filtered by level, coloured, follows the tail unless scrolled up.

#include "widgets/common/log_panel.h"
#include "widget_test_util.h"
#include "widgets/common/plot_theme.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>

using namespace ascope;

namespace {

QString lineText(const LogPanel& panel, int index) {
  return panel.view()->document()->findBlockByNumber(index).text();
}

QColor lineColor(const LogPanel& panel, int index) {
  const QTextBlock block = panel.view()->document()->findBlockByNumber(index);
  return block.begin().fragment().charFormat().foreground().color();
}

}  // namespace

class LogPanelTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void readOnlyMonospace() {
    LogPanel panel;
    QVERIFY(panel.view()->isReadOnly());
    // glyph widths, not QFontInfo::fixedPitch(): fontconfig reports Noto Sans Mono as proportional
    const QFontMetrics metrics(panel.view()->font());
    QCOMPARE(metrics.horizontalAdvance(QStringLiteral("iiii")),
             metrics.horizontalAdvance(QStringLiteral("WWWW")));
    QCOMPARE(panel.visibleLineCount(), 0);
  }

  void keepsAtMostTheLimit() {
    LogPanel panel;
    QCOMPARE(panel.maximumLines(), 5000);
    for (int i = 0; i < 6000; ++i)
      panel.appendLine(LogLevel::Info, QStringLiteral("line %1").arg(i));
    QCOMPARE(panel.storedLineCount(), 5000);
    QCOMPARE(panel.visibleLineCount(), 5000);
    QCOMPARE(lineText(panel, 0), QStringLiteral("line 1000"));
    QCOMPARE(lineText(panel, 4999), QStringLiteral("line 5999"));
    panel.setMaximumLines(100);
    QCOMPARE(panel.storedLineCount(), 100);
    QCOMPARE(lineText(panel, 0), QStringLiteral("line 5900"));
  }

  void filtersByLevelAndColoursLines() {
    LogPanel panel;
    const PlotTheme theme = PlotTheme::fromPalette(panel.view()->palette(), panel.font());
    panel.appendLine(LogLevel::Debug, QStringLiteral("d"));
    panel.appendLine(LogLevel::Info, QStringLiteral("i"));
    panel.appendLine(LogLevel::Warning, QStringLiteral("w"));
    panel.appendLine(LogLevel::Error, QStringLiteral("e"));
    QCOMPARE(panel.visibleLineCount(), 4);
    QCOMPARE(lineColor(panel, 1), theme.foreground);
    QCOMPARE(lineColor(panel, 2), theme.warning);
    QCOMPARE(lineColor(panel, 3), theme.bad);
    QVERIFY(lineColor(panel, 0) != theme.foreground);  // debug is muted
    // the user picks "Warnings and errors" in the combo box
    panel.levelFilter()->setCurrentIndex(panel.levelFilter()->findData(int(LogLevel::Warning)));
    QCOMPARE(panel.minimumLevel(), LogLevel::Warning);
    QCOMPARE(panel.visibleLineCount(), 2);
    QCOMPARE(lineText(panel, 0), QStringLiteral("w"));
    panel.appendLine(LogLevel::Info, QStringLiteral("hidden"));
    panel.appendLine(LogLevel::Critical, QStringLiteral("c"));
    QCOMPARE(panel.visibleLineCount(), 3);
    QCOMPARE(panel.storedLineCount(), 6);
    panel.setMinimumLevel(LogLevel::Trace);
    QCOMPARE(panel.visibleLineCount(), 6);
    panel.clear();
    QCOMPARE(panel.visibleLineCount(), 0);
  }

  void followsTheTailUnlessScrolledUp() {
    LogPanel panel;
    QVERIFY(test::showAndSettle(&panel, QSize(500, 200)));
    for (int i = 0; i < 200; ++i)
      panel.appendLine(LogLevel::Info, QStringLiteral("line %1").arg(i));
    QScrollBar* bar = panel.view()->verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), bar->maximum());
    bar->setValue(10);  // the user scrolls up to read
    panel.appendLine(LogLevel::Info, QStringLiteral("more"));
    QCOMPARE(bar->value(), 10);
    bar->setValue(bar->maximum());
    panel.appendLine(LogLevel::Info, QStringLiteral("again"));
    QCOMPARE(bar->value(), bar->maximum());
  }
};

QTEST_MAIN(LogPanelTest)
#include "log_panel_test.moc"
