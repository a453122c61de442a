// Lecture mode: presentation layout on F11 and back, font zoom that reaches
// labels and QCustomPlot fonts, one dock full screen and back, a high-contrast theme the plots
// follow, and the command-line options that turn them on for scripted screenshots.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <algorithm>

#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/run/live_learning_rate_box.h"
#include "app/gui/views/run/run_control_bar.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/window/layout/dock_layout.h"
#include "app/gui/window/lecture/dock_full_screen.h"
#include "app/gui/window/lecture/font_zoom.h"
#include "app/gui/window/lecture/presentation_controls.h"
#include "app/gui/window/lecture/presentation_mode.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/main/run_key_filter.h"
#include "app/gui/window/scripted/app_options.h"
#include "app/gui/window/scripted/main_window_scripting.h"
#include "app/gui/window/scripted/scripted_run.h"
#include "engine/tasks/registry/task_registry.h"
#include "fake_engine.h"
#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/common/themed_plot.h"
#include "widgets/samples/sample_panel.h"

namespace ascope {
namespace {

/// Where every dock is: area, shown, floating and its tab siblings; sizes left out. A closed
/// dock's siblings are left out: Qt 6.8 keeps its place after restoreState but no longer lists it
/// as tabbed until it is shown again (f11EntersAndLeavesPresentation reopens one to check).
QStringList layoutSignature(MainWindow& window) {
  QStringList out;
  for (QDockWidget* dock : window.dockLayout()->docks()) {
    QStringList tabs;
    for (QDockWidget* other : window.tabifiedDockWidgets(dock)) {
      if (dock->isVisible() && other->isVisible()) tabs << other->objectName();
    }
    tabs.sort();
    out << QStringLiteral("%1 area=%2 visible=%3 floating=%4 tabs=%5")
               .arg(dock->objectName())
               .arg(static_cast<int>(window.dockWidgetArea(dock)))
               .arg(dock->isVisible())
               .arg(dock->isFloating())
               .arg(tabs.join(QLatin1Char(',')));
  }
  return out;
}

void feed(MainWindow& window) {
  auto owned = std::make_unique<FakeEngine>();
  FakeEngine& engine = *owned;
  window.bridge()->attach(std::move(owned), *makePreset(kTranslationTaskId, "tiny"));
  engine.pushState(2);
  engine.pushSteps(1, 40);
  engine.publishAttention(40);
  engine.publishPositionalEncoding();
  engine.publishSample();
}

/// Every font size the Attention dock draws text with: its labels and combo boxes, and in its
/// plots the axis labels, tick labels and text elements (titles, "head 0" captions).
struct DockFonts {
  QList<double> widgets;
  QList<double> plot_texts;
};

QList<QCPTextElement*> textElements(QCustomPlot* plot) {
  QList<QCPTextElement*> out;
  QList<QCPLayoutElement*> stack{plot->plotLayout()};
  while (!stack.isEmpty()) {
    QCPLayoutElement* e = stack.takeLast();
    if (e == nullptr) continue;
    if (auto* text = qobject_cast<QCPTextElement*>(e)) out << text;
    if (qobject_cast<QCPLayoutGrid*>(e) != nullptr) stack.append(e->elements(false));
  }
  return out;
}

DockFonts fontsOf(QWidget* dock) {
  DockFonts fonts;
  for (QWidget* w : dock->findChildren<QWidget*>()) {
    if (qobject_cast<QLabel*>(w) != nullptr || qobject_cast<QComboBox*>(w) != nullptr)
      fonts.widgets << w->font().pointSizeF();
  }
  for (QCustomPlot* plot : dock->findChildren<QCustomPlot*>()) {
    for (QCPAxisRect* rect : plot->axisRects()) {
      for (QCPAxis* axis : rect->axes()) {
        fonts.plot_texts << axis->labelFont().pointSizeF() << axis->tickLabelFont().pointSizeF();
      }
    }
    for (QCPTextElement* text : textElements(plot)) fonts.plot_texts << text->font().pointSizeF();
  }
  return fonts;
}

/// Every size of `after` is `factor` times the one in `before`, give or take rounding.
bool allScaled(const QList<double>& before, const QList<double>& after, double factor) {
  if (before.size() != after.size() || before.isEmpty()) return false;
  for (int i = 0; i < before.size(); ++i) {
    if (std::abs(after[i] - before[i] * factor) > 0.6) return false;
  }
  return true;
}

}  // namespace

class PresentationModeTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void f11EntersAndLeavesPresentation();
  void zoomWhilePresentingLeavesTheNormalLayout();
  void zoomScalesLabelsAndPlotFonts();
  void dockGoesFullScreenAndBack();
  void highContrastReachesThePlots();
  void optionsTurnPresentationOn();
  void spaceIsTheRunsWhateverHasTheFocus();

 private:
  static void showActive(MainWindow& window) {
    window.resize(1400, 900);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
  }
};

void PresentationModeTest::f11EntersAndLeavesPresentation() {
  MainWindow window;
  showActive(window);
  // A layout of the user's own: Log tabbed with Loss, Heads hidden.
  window.tabifyDockWidget(window.dockLayout()->dock(QStringLiteral("lossDock")),
                          window.dockLayout()->dock(QStringLiteral("logDock")));
  window.dockLayout()->dock(QStringLiteral("headsDock"))->hide();
  const QStringList before = layoutSignature(window);
  PresentationMode* presentation = window.presentationControls()->presentation();

  QTest::keyClick(&window, Qt::Key_F11);
  QVERIFY(presentation->isActive());
  QVERIFY(window.windowState() & Qt::WindowFullScreen);
  QVERIFY(window.presentationControls()->presentationAction()->isChecked());
  QDockWidget* attention = window.dockLayout()->dock(QStringLiteral("attentionDock"));
  QTRY_VERIFY_WITH_TIMEOUT(attention->width() > 0.6 * window.width(), 2000);
  QVERIFY(attention->height() > 0.75 * window.height());
  for (const char* hidden : {"runDock", "logDock", "headsDock", "ablationDock"}) {
    QVERIFY2(!window.dockLayout()->dock(QLatin1String(hidden))->isVisible(), hidden);
  }
  QVERIFY(window.tabifiedDockWidgets(window.dockLayout()->dock(QStringLiteral("lossDock")))
              .contains(window.dockLayout()->dock(QStringLiteral("accuracyDock"))));
  // Two tab groups in the column: the curves above, the sample and the encoding below.
  QVERIFY(!window.tabifiedDockWidgets(window.dockLayout()->dock(QStringLiteral("lossDock")))
               .contains(window.dockLayout()->dock(QStringLiteral("sampleDock"))));
  QVERIFY(window.tabifiedDockWidgets(window.dockLayout()->dock(QStringLiteral("sampleDock")))
              .contains(window.dockLayout()->dock(QStringLiteral("positionalEncodingDock"))));
  QVERIFY(layoutSignature(window) != before);

  QTest::keyClick(&window, Qt::Key_F11);
  QVERIFY(!presentation->isActive());
  QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
  QCOMPARE(layoutSignature(window), before);
  // The closed dock, opened again from the View menu, comes back into its tab group.
  QDockWidget* heads = window.dockLayout()->dock(QStringLiteral("headsDock"));
  heads->show();
  QVERIFY(!heads->isFloating());
  QVERIFY(window.tabifiedDockWidgets(heads).contains(
      window.dockLayout()->dock(QStringLiteral("positionalEncodingDock"))));
}

namespace {

/// Every shown dock's geometry, by name.
QMap<QString, QRect> dockGeometries(MainWindow& window) {
  QMap<QString, QRect> out;
  for (QDockWidget* dock : window.dockLayout()->docks()) {
    // A dock behind another tab keeps a stale geometry outside the window until it is raised:
    // only the docks on screen say what the layout looks like.
    if (dock->isVisible() && dock->geometry().intersects(window.rect()))
      out.insert(dock->objectName(), dock->geometry());
  }
  return out;
}

bool sameGeometries(const QMap<QString, QRect>& a, const QMap<QString, QRect>& b, int slack) {
  if (a.keys() != b.keys()) return false;
  for (auto it = a.cbegin(); it != a.cend(); ++it) {
    const QRect& other = b.value(it.key());
    if (std::abs(it->x() - other.x()) > slack || std::abs(it->y() - other.y()) > slack ||
        std::abs(it->width() - other.width()) > slack ||
        std::abs(it->height() - other.height()) > slack)
      return false;
  }
  return true;
}

QString describe(const QMap<QString, QRect>& geometries) {
  QStringList parts;
  for (auto it = geometries.cbegin(); it != geometries.cend(); ++it) {
    parts << QStringLiteral("%1 %2,%3 %4x%5")
                 .arg(it.key())
                 .arg(it->x())
                 .arg(it->y())
                 .arg(it->width())
                 .arg(it->height());
  }
  return parts.join(QStringLiteral("; "));
}

}  // namespace

// F11, Ctrl+= three times, Ctrl+0, F11 left the colour bars without their scales, and
// the damage was saved at exit. The sequence must leave the normal layout as it was, and what is
// saved meanwhile is the normal layout.
void PresentationModeTest::zoomWhilePresentingLeavesTheNormalLayout() {
  MainWindow window;
  window.resize(1280, 720);
  window.show();
  window.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&window));
  window.dockLayout()->resetLayout();
  feed(window);
  AttentionHeadGrid* grid = window.attention()->panel()->headGrid();
  QTRY_VERIFY_WITH_TIMEOUT(grid->headCount() > 0, 2000);
  QTest::qWait(100);
  const QStringList before = layoutSignature(window);
  const QMap<QString, QRect> geometry_before = dockGeometries(window);
  const QSize grid_before = grid->size();

  QTest::keyClick(&window, Qt::Key_F11);
  QVERIFY(window.presentationControls()->presentation()->isActive());
  QVERIFY(window.dockLayout()->isHeld());
  for (int i = 0; i < 3; ++i) {
    QTest::keyClick(&window, Qt::Key_Equal, Qt::ControlModifier);
    QTest::qWait(30);
  }
  QCOMPARE(window.presentationControls()->fontZoom()->steps(), 3);
  QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
  QTest::qWait(50);
  QTest::keyClick(&window, Qt::Key_F11);
  QVERIFY(!window.presentationControls()->presentation()->isActive());
  QTRY_COMPARE_WITH_TIMEOUT(window.size(), QSize(1280, 720), 2000);
  QTest::qWait(200);  // the docks are restored once more at the window's own size
  QCOMPARE(layoutSignature(window), before);
  const QMap<QString, QRect> geometry_after = dockGeometries(window);
  QVERIFY2(sameGeometries(geometry_before, geometry_after, 2),
           qPrintable(describe(geometry_before) + QStringLiteral("\n") + describe(geometry_after)));
  QVERIFY(!window.dockLayout()->isHeld());
  QVERIFY(std::abs(grid->width() - grid_before.width()) <= 2);
  QVERIFY(std::abs(grid->height() - grid_before.height()) <= 2);
}

void PresentationModeTest::zoomScalesLabelsAndPlotFonts() {
  MainWindow window;
  showActive(window);
  feed(window);
  AttentionHeadGrid* grid = window.attention()->panel()->headGrid();
  QTRY_VERIFY_WITH_TIMEOUT(grid->headCount() > 0, 2000);
  QDockWidget* attention = window.dockLayout()->dock(QStringLiteral("attentionDock"));
  const DockFonts before = fontsOf(attention);
  QVERIFY(before.widgets.size() >= 3);
  QVERIFY(before.plot_texts.size() >= 4);
  // The sample's source text pins its own (larger) size; it must follow too.
  QList<double> sample_before;
  for (QLabel* label : window.sample()->panel()->findChildren<QLabel*>())
    sample_before << label->font().pointSizeF();

  QTest::keyClick(&window, Qt::Key_Equal, Qt::ControlModifier);
  QCOMPARE(window.presentationControls()->fontZoom()->steps(), 1);
  QTest::keyClick(&window, Qt::Key_Equal, Qt::ControlModifier);
  const double factor = FontZoom::factorFor(2);
  const DockFonts zoomed = fontsOf(attention);
  QVERIFY2(allScaled(before.widgets, zoomed.widgets, factor), "labels of the Attention dock");
  QVERIFY2(allScaled(before.plot_texts, zoomed.plot_texts, factor),
           "axis, tick and title fonts of the Attention dock's plots");
  QList<double> sample_zoomed;
  for (QLabel* label : window.sample()->panel()->findChildren<QLabel*>())
    sample_zoomed << label->font().pointSizeF();
  QVERIFY(allScaled(sample_before, sample_zoomed, factor));

  QTest::keyClick(&window, Qt::Key_Minus, Qt::ControlModifier);
  QCOMPARE(window.presentationControls()->fontZoom()->steps(), 1);
  QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
  QCOMPARE(window.presentationControls()->fontZoom()->steps(), 0);
  const DockFonts restored = fontsOf(attention);
  QCOMPARE(restored.widgets, before.widgets);
  QCOMPARE(restored.plot_texts, before.plot_texts);
  QList<double> sample_restored;
  for (QLabel* label : window.sample()->panel()->findChildren<QLabel*>())
    sample_restored << label->font().pointSizeF();
  QCOMPARE(sample_restored, sample_before);
}

void PresentationModeTest::dockGoesFullScreenAndBack() {
  MainWindow window;
  showActive(window);
  const QStringList before = layoutSignature(window);
  DockFullScreen* alone = window.presentationControls()->dockFullScreen();
  QDockWidget* loss = window.dockLayout()->dock(QStringLiteral("lossDock"));
  QVERIFY(loss->widget()->geometry().top() > 6);  // there is a title bar to double-click

  QTest::mouseDClick(loss, Qt::LeftButton, Qt::NoModifier, QPoint(loss->width() / 3, 4));
  QCOMPARE(alone->current(), loss);
  QVERIFY(!loss->isFloating());
  QVERIFY(window.windowState() & Qt::WindowFullScreen);
  for (QDockWidget* dock : window.dockLayout()->docks()) {
    QCOMPARE(dock->isVisible(), dock == loss);
  }
  QTRY_VERIFY_WITH_TIMEOUT(loss->width() > 0.9 * window.width(), 2000);

  // Esc, wherever the focus is, brings the layout back (and not the timeline's "back to run").
  loss->widget()->setFocus();
  QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window,
                  Qt::Key_Escape);
  QCOMPARE(alone->current(), nullptr);
  QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
  QCOMPARE(layoutSignature(window), before);

  // Shift+F11: the dock with the focus, here the Attention dock.
  window.attention()->panel()->setFocus();
  QTest::keyClick(&window, Qt::Key_F11, Qt::ShiftModifier);
  QCOMPARE(alone->current(), window.dockLayout()->dock(QStringLiteral("attentionDock")));
  QTest::keyClick(&window, Qt::Key_F11, Qt::ShiftModifier);
  QCOMPARE(alone->current(), nullptr);
  QCOMPARE(layoutSignature(window), before);
}

void PresentationModeTest::highContrastReachesThePlots() {
  MainWindow window;
  showActive(window);
  feed(window);
  AttentionHeadGrid* grid = window.attention()->panel()->headGrid();
  QTRY_VERIFY_WITH_TIMEOUT(grid->headCount() > 0, 2000);
  const QPalette original = QApplication::palette();
  const QColor plot_background = grid->theme().background;

  window.presentationControls()->highContrastAction()->trigger();
  QVERIFY(window.presentationControls()->isHighContrast());
  QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(Qt::black));
  // Widgets take a new application palette from a posted event.
  QTRY_COMPARE_WITH_TIMEOUT(grid->theme().background, QColor(Qt::black), 2000);
  for (ThemedPlot* plot : window.findChildren<ThemedPlot*>()) {
    QVERIFY2(plot->theme().background == QColor(Qt::black),
             qPrintable(plot->metaObject()->className() + QStringLiteral(" ") + plot->objectName() +
                        QStringLiteral(" in ") + plot->parentWidget()->metaObject()->className()));
    QCOMPARE(plot->theme().foreground, QColor(Qt::white));
    for (QCPAxisRect* rect : plot->axisRects()) {
      for (QCPAxis* axis : rect->axes()) {
        QCOMPARE(axis->tickLabelColor(), QColor(Qt::white));
        QCOMPARE(axis->labelColor(), QColor(Qt::white));
      }
    }
  }
  // Captions are white, the selected head's in the highlight colour.
  for (QCPTextElement* text : textElements(grid)) {
    QVERIFY(text->textColor() == QColor(Qt::white) ||
            text->textColor() == QApplication::palette().color(QPalette::Highlight));
  }

  window.presentationControls()->highContrastAction()->trigger();
  QVERIFY(!window.presentationControls()->isHighContrast());
  QCOMPARE(QApplication::palette().color(QPalette::Base), original.color(QPalette::Base));
  QTRY_COMPARE_WITH_TIMEOUT(grid->theme().background, plot_background, 2000);
}

void PresentationModeTest::optionsTurnPresentationOn() {
  QString error;
  bool help = false;
  const std::optional<AppOptions> options = AppOptions::parse(
      {QStringLiteral("attentionscope"), QStringLiteral("--presentation"), QStringLiteral("--zoom"),
       QStringLiteral("2"), QStringLiteral("--high-contrast")},
      &error, &help);
  QVERIFY2(options.has_value(), qPrintable(error));
  QVERIFY(options->presentation);
  QCOMPARE(options->zoom, 2);
  QVERIFY(options->high_contrast);
  QVERIFY(!options->scripted());
  for (const char* bad : {"9", "-4", "big"}) {
    QVERIFY(!AppOptions::parse(
        {QStringLiteral("attentionscope"), QStringLiteral("--zoom"), QString::fromLatin1(bad)},
        &error, &help));
    QVERIFY2(error.contains(QStringLiteral("--zoom")) && error.contains(QLatin1String(bad)),
             qPrintable(error));
  }

  MainWindow window;
  showActive(window);
  AppOptions scripted = *options;
  scripted.high_contrast = false;
  QTemporaryDir dir;
  // Scripted (a screenshot is asked for), so the window keeps its size.
  scripted.screenshot = dir.filePath(QStringLiteral("shot.png"));
  MainWindowScripting scripting(&window);
  ScriptedRun script(&scripting, scripted);
  // Only the presentation part of begin() is wanted here; the screenshot would come later.
  script.begin();
  QVERIFY(window.presentationControls()->presentation()->isActive());
  QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
  QCOMPARE(window.presentationControls()->fontZoom()->steps(), 2);
  QCOMPARE(window.size(), QSize(1400, 900));
}

// After F11 the focus sat in the Loss dock's Smoothing box and Space erased its value;
// after Esc it sat on Start and Space started a new run. Space is the run's (Pause) wherever the
// focus is, except in a text field, which keeps its keys until Esc gives the focus back.
void PresentationModeTest::spaceIsTheRunsWhateverHasTheFocus() {
  MainWindow window;
  showActive(window);
  RunPresenter* panel = window.runPanel();
  QVERIFY(panel->startAction()->isEnabled());
  QToolButton* start = nullptr;
  for (QObject* object : panel->startAction()->associatedObjects()) {
    if (auto* button = qobject_cast<QToolButton*>(object)) start = button;
  }
  QVERIFY(start != nullptr);
  start->setFocus(Qt::TabFocusReason);
  QTRY_VERIFY(start->hasFocus());
  QSignalSpy started(panel, &RunPresenter::startRequested);
  QTest::keyClick(start, Qt::Key_Space);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
  QTest::qWait(100);
  QCOMPARE(started.size(), 0);  // only Start (a click, F5) starts a run
  QVERIFY(!window.bridge()->isActive());

  // A text field keeps its keys; Esc gives the focus back, and the timeline keeps its place.
  auto* smoothing = window.findChild<QDoubleSpinBox*>(QStringLiteral("smoothingBox"));
  QVERIFY(smoothing != nullptr);
  smoothing->setFocus(Qt::TabFocusReason);
  QTRY_VERIFY(smoothing->hasFocus());
  QTest::keyClick(smoothing, Qt::Key_Escape);
  QVERIFY(!smoothing->hasFocus());
  QVERIFY(!RunKeyFilter::isTextField(QApplication::focusWidget()));

  // Presentation mode never leaves the focus in a text field, going in or out.
  smoothing->setFocus(Qt::TabFocusReason);
  QTRY_VERIFY(smoothing->hasFocus());
  QTest::keyClick(&window, Qt::Key_F11);
  QVERIFY(window.presentationControls()->presentation()->isActive());
  QVERIFY2(!RunKeyFilter::isTextField(QApplication::focusWidget()),
           qPrintable(QApplication::focusWidget()->objectName()));
  QTest::keyClick(&window, Qt::Key_F11);
  QVERIFY(!window.presentationControls()->presentation()->isActive());
  QVERIFY(!RunKeyFilter::isTextField(QApplication::focusWidget()));

  // A learning rate sent with Enter lets go of the keyboard too.
  QLineEdit* rate = window.runControls()->liveLearningRate()->rateEdit();
  rate->setEnabled(true);
  rate->setFocus(Qt::TabFocusReason);
  QTRY_VERIFY(rate->hasFocus());
  QTest::keyClicks(rate, QStringLiteral("5e-4"));
  QTest::keyClick(rate, Qt::Key_Escape);
  QVERIFY(!rate->hasFocus());
}

}  // namespace ascope

QTEST_MAIN(ascope::PresentationModeTest)
#include "presentation_mode_test.moc"
