// Remembered settings: the Run dock's task, preset and hyperparameters and the
// last run survive a restart, a gone run folder is forgotten, and a window saved off-screen or
// larger than the screen comes back on it. Every test writes to a settings file in a temporary
// folder, never to the user's.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/run/hyperparameter_form.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/window/layout/dock_layout.h"
#include "app/gui/window/layout/window_placement.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/remembered_settings.h"
#include "app/gui/window/run/run_controller.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "fake_engine.h"

namespace ascope {

class RememberedSettingsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void settingsLiveInTheTestFolder();
  void runSettingsSurviveARestart();
  void corruptValuesAreIgnored();
  void lastRunIsReopened();
  void goneLastRunIsForgotten();
  void damagedLastRunIsReportedAndForgotten();
  void fitIntoScreenMovesAndShrinks();
  void offScreenWindowComesBackOnScreen();

 private:
  QTemporaryDir settings_dir_;
};

void RememberedSettingsTest::initTestCase() {
  QVERIFY(settings_dir_.isValid());
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName(QStringLiteral("AttentionScopeTest"));
  QCoreApplication::setApplicationName(QStringLiteral("remembered_settings_test"));
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir_.path());
}

void RememberedSettingsTest::init() {
  QSettings().clear();
}

void RememberedSettingsTest::settingsLiveInTheTestFolder() {
  QVERIFY2(QSettings().fileName().startsWith(settings_dir_.path()),
           qPrintable(QSettings().fileName()));
}

void RememberedSettingsTest::runSettingsSurviveARestart() {
  {
    MainWindow window;
    window.setInteractive();
    window.show();
    RunPresenter* run = window.runPanel();
    run->setTask(QString::fromLatin1(kSentimentTaskId));
    run->setPreset(QStringLiteral("tiny"));
    qobject_cast<QLineEdit*>(run->form()->field(QStringLiteral("lr")))
        ->setText(QStringLiteral("0.0042"));
    qobject_cast<QSpinBox*>(run->form()->field(QStringLiteral("batch_size")))->setValue(24);
    qobject_cast<QSpinBox*>(run->form()->field(QStringLiteral("heads")))->setValue(1);
    QVERIFY(window.close());
  }
  MainWindow window;
  window.setInteractive();
  RunPresenter* run = window.runPanel();
  QCOMPARE(run->taskBox()->currentData().toString(), QString::fromLatin1(kSentimentTaskId));
  QCOMPARE(run->presetBox()->currentData().toString(), QStringLiteral("tiny"));
  QCOMPARE(qobject_cast<QLineEdit*>(run->form()->field(QStringLiteral("lr")))->text(),
           QStringLiteral("0.0042"));
  QCOMPARE(qobject_cast<QSpinBox*>(run->form()->field(QStringLiteral("batch_size")))->value(), 24);
  QCOMPARE(qobject_cast<QSpinBox*>(run->form()->field(QStringLiteral("heads")))->value(), 1);
  QCOMPARE(run->currentConfig().optimization.lr, 0.0042);
  QCOMPARE(run->currentConfig().batch_size, 24);
}

void RememberedSettingsTest::corruptValuesAreIgnored() {
  {
    QSettings settings;
    settings.setValue(QStringLiteral("run/task"), QString::fromLatin1(kSentimentTaskId));
    settings.setValue(QStringLiteral("run/preset"), QStringLiteral("no such preset"));
    settings.setValue(QStringLiteral("run/fields/batch_size"), QStringLiteral("lots"));
    settings.setValue(QStringLiteral("run/fields/epochs"), 999999999);
    settings.setValue(QStringLiteral("run/fields/no_such_field"), 3);
  }
  MainWindow window;
  window.setInteractive();
  RunPresenter* run = window.runPanel();
  const TrainingConfig preset =
      *makePreset(kSentimentTaskId, run->presetBox()->currentData().toString().toStdString());
  QCOMPARE(run->taskBox()->currentData().toString(), QString::fromLatin1(kSentimentTaskId));
  QCOMPARE(run->currentConfig().batch_size, preset.batch_size);
  QCOMPARE(run->currentConfig().epochs, preset.epochs);
}

void RememberedSettingsTest::lastRunIsReopened() {
  QTemporaryDir dir;
  const QString folder = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(folder.toStdString(), 2));
  QSettings().setValue(QStringLiteral("session/lastRun"), folder);
  MainWindow window;
  window.setInteractive();
  window.show();
  QSignalSpy decided(window.rememberedSettings(), &RememberedSettings::reopenDecided);
  QTRY_COMPARE_WITH_TIMEOUT(decided.size(), 1, 5000);
  QVERIFY(decided.at(0).at(1).toBool());
  QTRY_COMPARE_WITH_TIMEOUT(window.currentRun()->folder(), folder, 5000);
  // Opening a run (here the same one) keeps it remembered.
  QCOMPARE(window.rememberedSettings()->lastRun(), QDir::cleanPath(folder));
}

void RememberedSettingsTest::goneLastRunIsForgotten() {
  QTemporaryDir dir;
  const QString folder = dir.filePath(QStringLiteral("deleted-run"));
  QSettings().setValue(QStringLiteral("session/lastRun"), folder);
  MainWindow window;
  window.setInteractive();
  QSignalSpy decided(window.rememberedSettings(), &RememberedSettings::reopenDecided);
  QTRY_COMPARE_WITH_TIMEOUT(decided.size(), 1, 5000);
  QVERIFY(!decided.at(0).at(1).toBool());
  QVERIFY(window.currentRun()->folder().isEmpty());
  QVERIFY(!QSettings().contains(QStringLiteral("session/lastRun")));
}

void RememberedSettingsTest::damagedLastRunIsReportedAndForgotten() {
  // A model setting of the wrong JSON type aborted the window at every start while the run was
  // remembered: now it is said in the status bar and the log, forgotten, and the window goes on.
  QTemporaryDir dir;
  const QString folder = dir.filePath(QStringLiteral("damaged-run"));
  QVERIFY(FakeEngine::writeRunFolder(folder.toStdString(), 1));
  {
    QFile config(folder + QStringLiteral("/config.json"));
    QVERIFY(config.open(QIODevice::ReadOnly));
    QJsonObject settings = QJsonDocument::fromJson(config.readAll()).object();
    config.close();
    QJsonObject vit = settings.value(QStringLiteral("vit")).toObject();
    QVERIFY(vit.contains(QStringLiteral("layers")));
    vit.insert(QStringLiteral("layers"), QStringLiteral("4"));
    settings.insert(QStringLiteral("vit"), vit);
    QVERIFY(config.open(QIODevice::WriteOnly | QIODevice::Truncate));
    config.write(QJsonDocument(settings).toJson());
  }
  QSettings().setValue(QStringLiteral("session/lastRun"), folder);
  {
    MainWindow window;
    window.setInteractive();
    window.show();
    QSignalSpy failed(window.controller(), &RunController::rememberedRunFailed);
    QSignalSpy asked(window.controller(), &RunController::openFailed);
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 5000);
    QVERIFY2(failed.at(0).at(1).toString().contains(QStringLiteral("\"vit.layers\"")),
             qPrintable(failed.at(0).at(1).toString()));
    QCOMPARE(asked.size(), 0);  // no dialog in the way at start
    QVERIFY(window.currentRun()->folder().isEmpty());
    QVERIFY(!QSettings().contains(QStringLiteral("session/lastRun")));
  }
  MainWindow again;  // the next start does not try it again
  again.setInteractive();
  QSignalSpy decided(again.rememberedSettings(), &RememberedSettings::reopenDecided);
  QTest::qWait(300);
  QCOMPARE(decided.size(), 0);
}

void RememberedSettingsTest::fitIntoScreenMovesAndShrinks() {
  const QRect screen(0, 0, 1920, 1080);
  const QMargins frame(8, 32, 8, 8);
  const QRect room = screen.marginsRemoved(frame);
  // Already inside: untouched.
  QCOMPARE(fitIntoScreen(QRect(100, 100, 800, 600), screen, frame), QRect(100, 100, 800, 600));
  // Off to the right and below (a screen that is gone): moved back, size kept.
  const QRect moved = fitIntoScreen(QRect(3000, 2000, 800, 600), screen, frame);
  QCOMPARE(moved.size(), QSize(800, 600));
  QVERIFY(room.contains(moved));
  // Larger than the screen (saved on a bigger one): shrunk to fit, status bar on screen.
  const QRect shrunk = fitIntoScreen(QRect(-50, -80, 2560, 1600), screen, frame);
  QCOMPARE(shrunk, room);
  // A second screen left of the primary one has negative coordinates.
  const QRect left(-1280, 0, 1280, 1024);
  QVERIFY(
      left.marginsRemoved(frame).contains(fitIntoScreen(QRect(-5000, 10, 800, 600), left, frame)));
}

void RememberedSettingsTest::offScreenWindowComesBackOnScreen() {
  const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
  {
    MainWindow window;
    window.setInteractive();
    window.setGeometry(available.right() + 2000, available.bottom() + 1500, available.width() + 900,
                       available.height() + 700);
    window.dockLayout()->saveLayout();
  }
  MainWindow window;
  window.setInteractive();
  // The window cannot be narrower than its docks allow, but its title bar and its status bar
  // (top and bottom) must be on the screen.
  const QRect room = available.marginsRemoved(kAssumedFrame);
  const QRect shown = window.geometry();
  QVERIFY2(shown.left() >= room.left() && shown.top() >= room.top() &&
               shown.bottom() <= room.bottom() &&
               (shown.right() <= room.right() || shown.left() == room.left()),
           qPrintable(QStringLiteral("%1,%2 %3x%4 outside %5,%6 %7x%8")
                          .arg(window.geometry().x())
                          .arg(window.geometry().y())
                          .arg(window.geometry().width())
                          .arg(window.geometry().height())
                          .arg(room.x())
                          .arg(room.y())
                          .arg(room.width())
                          .arg(room.height())));
}

}  // namespace ascope

QTEST_MAIN(ascope::RememberedSettingsTest)
#include "remembered_settings_test.moc"
