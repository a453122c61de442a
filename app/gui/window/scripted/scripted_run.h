#pragma once
// Scripted mode (see app_options.h): trains or opens a run without a person, then exports,
// screenshots, prints the streaming figures and quits. Exit codes: 0 done, 1 the run failed or
// the output could not be written, 2 bad settings, 3 timeout.
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <vector>

#include "app/gui/window/scripted/app_options.h"
#include "app/gui/window/scripted/eta_track.h"
#include "engine/core/output_file.h"
#include "engine/vocabulary/events.h"

class QWidget;

namespace ascope {

class ScriptableWindow;
class StallMonitor;

class ScriptedRun : public QObject {
  Q_OBJECT

 public:
  ScriptedRun(ScriptableWindow* window, AppOptions options, QObject* parent = nullptr);

  /// Applies the options to the window and, when scripted, starts the work.
  void begin();

  /// Exit code of a scripted run that ran past --timeout.
  static constexpr int kTimedOut = 3;
  /// Seconds the trainer and the pool jobs get to stop once scripted mode is over.
  static constexpr int kShutdownGraceS = 10;

  /// Call once the event loop has returned in scripted mode, before the window is destroyed:
  /// its destructor joins the trainer, and the application's waits for the pool jobs, and either
  /// may be stuck (a batch of a huge model, a job in a blocking read). After `grace_s` seconds the
  /// process ends with `exit_code` whatever is still running, saying so on stderr.
  static void exitAfterGrace(int exit_code, int grace_s = kShutdownGraceS);

 Q_SIGNALS:
  /// The scripted work is over; `exit_code` as documented above.
  void finished(int exit_code);

 private:
  void onRunEnded(TrainerState state);
  void onRunOpened();
  /// --lesson: opens it, plays --moment, enters --tally, --reveal, then settles and finishes.
  void playLesson();
  /// --add-moment: the window's moment added to --lesson-out (opened first when it exists), then
  /// the outputs as usual.
  void addMoment();
  /// --computation: the Computation dock raised, its answer awaited, then --cell and --stage.
  void showComputation();
  /// Asks "Try it" when --ask was given, then lets queued replots and layouts run, writes the
  /// outputs and finishes.
  void settleAndFinish();
  /// --evaluate: the Errors dock scores the run on --data's split and is raised; then --ablate,
  /// --ask or the end.
  void evaluate();
  /// --ablate: runs the Ablation dock's ablation and waits for it (polled: it runs on a worker).
  void ablate();
  /// --ask, then finish; or finish at once.
  void askOrFinish();
  /// --inspect-model: a pretrained model reads --text (and --pair), then finish.
  void inspect();
  void finishNow();
  /// Everything the command line asked to have written or said once the session is done, in
  /// this order; returns the exit code (0, or 1 when something was not written).
  int writeOutputs();
  /// --compare: the comparison window, waited for (what the screenshot then shows), else the
  /// main window; `code` becomes 1 when it cannot compare.
  QWidget* compareRuns(int& code);
  /// The measured layout into `report`, and its one line.
  void reportLayout(QJsonObject& report);
  /// A trained session's throughput, stalls, drains and time estimates into `report`, and their
  /// lines.
  void reportTraining(QJsonObject& report);
  /// The honest-estimate check: the run's time projected from its first steps and the ETA's
  /// course against the time it took.
  void reportTimeEstimates(QJsonObject& report);
  /// --export-dir and --export-video.
  int exportFigures();
  int writeScreenshot(QWidget* shot_of);
  /// The panels' line, then --report.
  int writeReport(const QJsonObject& report);
  /// What the session reads (the opened and compared runs' files, the data, a model folder):
  /// --screenshot and --report never replace one of them.
  std::vector<CommandInput> outputInputs() const;
  void fail(int code, const QString& message);
  /// Prints every projection of the run's time, keeps the first and follows the ETA shown (the
  /// honest-estimate checks).
  void followProjections();

  ScriptableWindow* window_;
  AppOptions options_;
  StallMonitor* stalls_;
  QTimer timeout_;
  QElapsedTimer wall_;
  double training_wall_s_ = 0;
  QString last_failure_;
  /// The run's whole time as first projected from its own steps, and when (on wall_) the
  /// session had started.
  double first_projection_s_ = 0;
  double first_projection_at_s_ = 0;
  /// The toolbar's ETA through the run, against its real end.
  EtaTrack eta_;
  double eta_sampled_at_s_ = -1;
  QString answer_;
  bool ask_failed_ = false;  ///< --ask got no answer: the run ends with exit code 1
  bool done_ = false;
  bool moment_added_ = false;       ///< --add-moment has run (the outputs follow)
  bool computation_shown_ = false;  ///< --computation has run (the outputs follow)
};

}  // namespace ascope
