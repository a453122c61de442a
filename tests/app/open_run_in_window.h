#pragma once
// Opening a stored run in a shown MainWindow, as several app tests start: back when the run has
// opened and the Attention dock has loaded its snapshot. A failed wait fails the test; the caller
// checks QTest::currentTestFailed() where it goes on.
#include <QSignalSpy>
#include <QString>
#include <QTest>

#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/run_controller.h"

namespace ascope::test {

inline void showAndOpenRun(MainWindow& window, const QString& run, int timeout_ms = 5000) {
  window.resize(1400, 900);
  window.show();
  QSignalSpy opened(window.controller(), &RunController::runOpened);
  window.controller()->openRun(run);
  QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, timeout_ms);
  window.attention()->waitForLoad();
}

}  // namespace ascope::test
