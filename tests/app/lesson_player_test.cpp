// A lesson in the window: moments over two runs played by Page Down and Page Up alone (the
// attention panel's own Page keys yield while a lesson is open), a hidden moment starting a
// prediction round on its row, moments built from the window saved beside their runs and opened
// again, and bad moments skipped by name with no file of any run written.
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/window/lesson/lesson_actions.h"
#include "app/gui/window/lesson/lesson_player.h"
#include "app/gui/window/main/main_window.h"
#include "engine/runfolder/lesson/lesson_file.h"
#include "fake_engine.h"
#include "open_run_in_window.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/attention/prediction_round.h"
#include "widgets/quiz/guess_layer.h"

namespace ascope {

class LessonPlayerTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void pageKeysPlayMomentsAcrossRuns();
  void momentsBuiltInTheWindowAreSavedAndOpenAgain();
  void badMomentsAreSkippedByNameAndNothingIsWritten();

 private:
  /// Opens `path` with Lesson → Open lesson… and waits for it.
  static bool openLesson(MainWindow& window, const QString& path);
  /// Waits until the moment asked for is on screen.
  static bool waitForMoment(MainWindow& window);
  /// Every file under `dir` with its size and modification time.
  static QStringList filesOf(const QString& dir);
  QTemporaryDir settings_dir_;
};

void LessonPlayerTest::initTestCase() {
  QVERIFY(settings_dir_.isValid());
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir_.path());
}

bool LessonPlayerTest::openLesson(MainWindow& window, const QString& path) {
  QSignalSpy opened(window.lessonActions(), &LessonActions::lessonOpened);
  window.lessonActions()->openLesson(path);
  return opened.wait(10000) && opened.first().first().toBool();
}

bool LessonPlayerTest::waitForMoment(MainWindow& window) {
  if (!QTest::qWaitFor([&] { return !window.lessonPlayer()->isBusy(); }, 10000)) return false;
  window.attention()->waitForLoad();
  return true;
}

QStringList LessonPlayerTest::filesOf(const QString& dir) {
  QStringList files;
  QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QFileInfo info(it.next());
    files << QStringLiteral("%1 %2 %3")
                 .arg(info.filePath())
                 .arg(info.size())
                 .arg(info.lastModified().toMSecsSinceEpoch());
  }
  files.sort();
  return files;
}

void LessonPlayerTest::pageKeysPlayMomentsAcrossRuns() {
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath(QStringLiteral("a")).toStdString(), 3));
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath(QStringLiteral("b")).toStdString(), 4));
  Lesson lesson;
  lesson.title = "Two runs";
  LessonMoment first;
  first.run = "a";
  first.step = 20;
  first.question = "What does CLS look at?";
  LessonMoment hidden;
  hidden.run = "b";
  hidden.step = 30;
  hidden.head = 1;
  hidden.query = 2;
  hidden.hidden = true;
  hidden.question = "Where does patch 1 look?";
  LessonMoment curves;
  curves.run = "a";
  curves.view = "curves";
  curves.question = "When did it stop learning?";
  lesson.moments = {first, hidden, curves};
  const QString path = dir.filePath(QStringLiteral("lesson.json"));
  QVERIFY(writeLesson(path.toStdString(), lesson).ok());

  MainWindow window;
  window.resize(1280, 720);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  QVERIFY(openLesson(window, path));
  LessonPlayer* player = window.lessonPlayer();
  QCOMPARE(player->lesson().moments.size(), 3u);
  QCOMPARE(player->current(), -1);
  auto* question = window.findChild<QLabel*>(QStringLiteral("lessonQuestion"));
  QVERIFY(question->isVisible());

  AttentionHeadGridPanel* panel = window.attention()->panel();
  panel->headView()->setFocus();
  QTest::keyClick(panel->headView(), Qt::Key_PageDown);
  QVERIFY(waitForMoment(window));
  QCOMPARE(player->current(), 0);
  QCOMPARE(QFileInfo(window.currentRun()->folder()).fileName(), QStringLiteral("a"));
  QCOMPARE(window.attention()->shownStep(), 20);
  QCOMPARE(question->text(), QStringLiteral("What does CLS look at?"));
  QVERIFY(!panel->predictionRound()->isActive());

  // The panel's own Page Down (the next layer) yields to the lesson while it is open.
  panel->headView()->setFocus();
  QTest::keyClick(panel->headView(), Qt::Key_PageDown);
  QVERIFY(waitForMoment(window));
  QCOMPARE(player->current(), 1);
  QCOMPARE(QFileInfo(window.currentRun()->folder()).fileName(), QStringLiteral("b"));
  QCOMPARE(window.attention()->shownStep(), 30);
  QCOMPARE(panel->currentLayer(), 0);
  QCOMPARE(panel->currentHead(), 1);
  QVERIFY(panel->predictionRound()->isActive());
  QCOMPARE(panel->predictionRound()->query(), 2);
  QVERIFY(panel->headView()->guessLayer()->hides(2));
  QVERIFY(!panel->headView()->guessLayer()->hides(1));

  QTest::keyClick(panel->headView(), Qt::Key_PageDown);
  QVERIFY(waitForMoment(window));
  QCOMPARE(player->current(), 2);
  QCOMPARE(QFileInfo(window.currentRun()->folder()).fileName(), QStringLiteral("a"));
  QCOMPARE(window.attention()->shownStep(), 30);  // "the last step" of run a
  QVERIFY(!panel->predictionRound()->isActive());
  QTest::keyClick(&window, Qt::Key_PageDown);  // past the end: stays
  QCOMPARE(player->current(), 2);

  QTest::keyClick(&window, Qt::Key_PageUp);
  QVERIFY(waitForMoment(window));
  QCOMPARE(player->current(), 1);
  QVERIFY(panel->predictionRound()->isActive());
  QCOMPARE(question->text(), QStringLiteral("Where does patch 1 look?"));

  // Removing the moment shown makes the one before current: Next shows the one that followed.
  player->removeCurrent();
  QCOMPARE(player->lesson().moments.size(), 2u);
  QCOMPARE(player->current(), 0);
  QTest::keyClick(&window, Qt::Key_PageDown);
  QVERIFY(waitForMoment(window));
  QCOMPARE(player->current(), 1);
  QCOMPARE(question->text(), QStringLiteral("When did it stop learning?"));
}

void LessonPlayerTest::momentsBuiltInTheWindowAreSavedAndOpenAgain() {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("runs/vit"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 3));
  const QString path = dir.filePath(QStringLiteral("lesson.json"));
  {
    MainWindow window;
    test::showAndOpenRun(window, run);
    QVERIFY(!QTest::currentTestFailed());
    window.attention()->showStep(20);
    window.attention()->waitForLoad();
    AttentionHeadGridPanel* panel = window.attention()->panel();
    panel->setCurrentHead(1);
    panel->predictionRound()->start(3);
    LessonMoment moment = window.lessonPlayer()->momentFromWindow();
    QCOMPARE(moment.step, 20);
    QCOMPARE(moment.head, 1);
    QCOMPARE(moment.query, 3);
    QVERIFY(moment.hidden);
    moment.question = "Which patch?";
    window.lessonPlayer()->addMoment(moment);
    panel->predictionRound()->end();
    window.attention()->showStep(10);
    window.attention()->waitForLoad();
    LessonMoment second = window.lessonPlayer()->momentFromWindow();
    second.question = "And earlier?";
    window.lessonPlayer()->addMoment(second);
    QSignalSpy saved(window.lessonActions(), &LessonActions::lessonSaved);
    window.lessonActions()->saveLesson(path);
    QVERIFY(saved.wait(5000));
    QVERIFY(saved.first().first().toBool());
  }
  // Beside its runs: the run is written relative to the lesson, so the two move together.
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QVERIFY(file.readAll().contains("\"run\": \"runs/vit\""));

  MainWindow window;  // as after a restart
  window.show();
  QStringList messages;
  connect(window.lessonActions(), &LessonActions::message, this,
          [&messages](const QString& text) { messages << text; });
  QVERIFY(openLesson(window, path));
  QVERIFY2(messages.filter(QStringLiteral("Skipped")).isEmpty(), qPrintable(messages.join('\n')));
  LessonPlayer* player = window.lessonPlayer();
  QCOMPARE(player->lesson().moments.size(), 2u);
  QCOMPARE(player->lesson().moments[0].question, std::string("Which patch?"));
  QCOMPARE(player->lesson().moments[1].step, 10);
  player->play(0);
  QVERIFY(waitForMoment(window));
  QCOMPARE(window.attention()->shownStep(), 20);
  QVERIFY(window.attention()->panel()->predictionRound()->isActive());
  QCOMPARE(window.attention()->panel()->predictionRound()->query(), 3);
}

void LessonPlayerTest::badMomentsAreSkippedByNameAndNothingIsWritten() {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 2));
  const QString path = dir.filePath(QStringLiteral("lesson.json"));
  {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": 1, "title": "Bad", "moments": [
      {"run": "run", "step": 10, "question": "fine"},
      {"run": "gone", "question": "a run that is gone"},
      {"run": "run", "step": 15, "question": "a step not stored"},
      {"run": "run", "step": 20, "head": 9, "question": "no such head"},
      {"run": "run", "layer": "two", "question": "garbage"},
      {"run": "run", "step": 20, "query": 4, "hidden": true, "question": "also fine"}]})");
  }
  const QStringList before = filesOf(dir.path());
  MainWindow window;
  window.show();
  QStringList messages;
  connect(window.lessonActions(), &LessonActions::message, this,
          [&messages](const QString& text) { messages << text; });
  QVERIFY(openLesson(window, path));
  const QString said = messages.join(QLatin1Char('\n'));
  for (const char* name : {"moment 2", "moment 3", "moment 4", "moment 5"})
    QVERIFY2(said.contains(QLatin1String(name)), qPrintable(said));
  QVERIFY2(!said.contains(QLatin1String("moment 1 ")) && !said.contains(QLatin1String("moment 6")),
           qPrintable(said));
  LessonPlayer* player = window.lessonPlayer();
  QCOMPARE(player->lesson().moments.size(), 2u);
  // The four moments left out are in the file only: saving over it would lose them.
  QSignalSpy saved(window.lessonActions(), &LessonActions::lessonSaved);
  window.lessonActions()->saveLesson(path);
  QCOMPARE(saved.size(), 1);
  QVERIFY(!saved.first().first().toBool());
  QVERIFY(messages.last().contains(QStringLiteral("save the lesson under another name")));
  player->play(1);
  QVERIFY(waitForMoment(window));
  QVERIFY(window.attention()->panel()->predictionRound()->isActive());
  player->play(0);
  QVERIFY(waitForMoment(window));
  QCOMPARE(window.attention()->shownStep(), 10);
  // A file that is no lesson at all is one clear message; the window goes on.
  QFile garbage(dir.filePath(QStringLiteral("garbage.json")));
  QVERIFY(garbage.open(QIODevice::WriteOnly));
  garbage.write("\x00\x01 not json");
  garbage.close();
  QVERIFY(!openLesson(window, garbage.fileName()));
  QVERIFY(messages.last().contains(QStringLiteral("garbage.json")));
  QCOMPARE(player->lesson().moments.size(), 2u);  // the open lesson stays
  QStringList after = filesOf(dir.path());
  after.removeAll(filesOf(dir.path()).filter(QStringLiteral("garbage.json")).value(0));
  QCOMPARE(after, before);
}

}  // namespace ascope

QTEST_MAIN(ascope::LessonPlayerTest)
#include "lesson_player_test.moc"
