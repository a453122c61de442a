// Ctrl+= twice pushed the window past a 1280 × 720 screen (its status bar and dock tabs
// lost), and leaving F11 left it at 0,0 with its title bar above the screen. A window whose
// minimum width grows with its font (one long label) on the offscreen screen: zoomed in step by
// step, the step the screen cannot hold is taken back and said, and the window stays inside the
// screen's available area; a window put at 0,0 on leaving full screen gets its title bar back.
#include <QGuiApplication>
#include <QLabel>
#include <QScreen>
#include <QSignalSpy>
#include <QTest>
#include <QVBoxLayout>
#include <QWidget>

#include <memory>

#include "app/gui/window/layout/window_placement.h"
#include "app/gui/window/lecture/font_zoom.h"
#include "app/gui/window/lecture/window_on_screen.h"

namespace ascope {
namespace {

QString describe(const QWidget* window) {
  const auto rect = [](const QRect& r) {
    return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
  };
  return QStringLiteral("window %1, frame %2, screen's available area %3")
      .arg(rect(window->geometry()), rect(window->frameGeometry()),
           rect(window->screen()->availableGeometry()));
}

}  // namespace

class WindowOnScreenTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aZoomTheScreenCannotHoldIsTakenBack();
  void leavingFullScreenBringsTheTitleBarBack();

 private:
  /// A window as wide as a line of `characters` letters at its font, at least.
  static QWidget* windowWithLine(int characters) {
    auto* window = new QWidget;
    auto* layout = new QVBoxLayout(window);
    auto* label = new QLabel(QString(characters, QLatin1Char('m')), window);
    label->setWordWrap(false);
    layout->addWidget(label);
    return window;
  }
};

void WindowOnScreenTest::aZoomTheScreenCannotHoldIsTakenBack() {
  const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
  const QRect room = available.marginsRemoved(kAssumedFrame);
  std::unique_ptr<QWidget> window(windowWithLine(20));
  // At zoom 0 a third of the screen wide: some zoom steps fit, one does not (1.2 per step).
  const int line = window->minimumSizeHint().width();
  QVERIFY2(line > 0 && line * 2 < room.width(), qPrintable(QString::number(line)));
  FontZoom zoom(window.get());
  WindowOnScreen guard(window.get(), &zoom);
  QSignalSpy said(&guard, &WindowOnScreen::message);
  window->setGeometry(QRect(room.topLeft(), QSize(line + 40, 200)));
  window->show();
  QVERIFY(QTest::qWaitForWindowExposed(window.get()));

  zoom.zoomIn();  // 1.2 × the width: fits
  QTest::qWait(100);
  QCOMPARE(zoom.steps(), 1);
  QCOMPARE(said.count(), 0);
  int last_fitting = 1;
  for (int press = 2; press <= FontZoom::kMaxSteps && said.isEmpty(); ++press) {
    zoom.zoomIn();
    QTRY_VERIFY_WITH_TIMEOUT(zoom.steps() == press || !said.isEmpty(), 2000);
    QTest::qWait(50);
    if (said.isEmpty()) last_fitting = press;
  }
  QVERIFY2(!said.isEmpty(), "the line never outgrew the screen");
  // Back at the largest zoom that fits, which the message names; the window is inside the screen.
  QCOMPARE(zoom.steps(), last_fitting);
  const QString text = said.last().at(0).toString();
  QVERIFY2(text.contains(QStringLiteral("+%1").arg(last_fitting)), qPrintable(text));
  QVERIFY(WindowOnScreen::minimumFits(window.get()));
  QTRY_VERIFY2_WITH_TIMEOUT(available.contains(window->frameGeometry()),
                            qPrintable(describe(window.get())), 2000);
  // One step larger really is too wide: its line alone needs more than the screen's room.
  QVERIFY2(line * FontZoom::factorFor(last_fitting + 1) > room.width() * 0.9,
           qPrintable(QStringLiteral("line %1 at zoom 0, room %2").arg(line).arg(room.width())));

  // Zooming out is never taken back, and says nothing.
  said.clear();
  zoom.zoomOut();
  QTest::qWait(100);
  QCOMPARE(zoom.steps(), last_fitting - 1);
  QCOMPARE(said.count(), 0);
}

void WindowOnScreenTest::leavingFullScreenBringsTheTitleBarBack() {
  std::unique_ptr<QWidget> window(windowWithLine(10));
  FontZoom zoom(window.get());
  WindowOnScreen guard(window.get(), &zoom);
  window->setGeometry(100, 100, 300, 200);
  window->show();
  QVERIFY(QTest::qWaitForWindowExposed(window.get()));
  window->setWindowState(Qt::WindowFullScreen);
  QTest::qWait(50);
  // What openbox did: the client back in the screen's corner, its frame (title bar) above it.
  window->setWindowState(Qt::WindowNoState);
  window->setGeometry(-20, -20, 300, 200);
  const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
  QTRY_VERIFY2_WITH_TIMEOUT(available.contains(window->frameGeometry()),
                            qPrintable(describe(window.get())), 2000);
  QCOMPARE(window->size(), QSize(300, 200));
}

}  // namespace ascope

QTEST_MAIN(ascope::WindowOnScreenTest)
#include "window_on_screen_test.moc"
