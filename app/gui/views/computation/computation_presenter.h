#pragma once
// The Computation dock's one owner: what the Attention dock shows (the run at its shown step and
// probe sample, an asked input, a pretrained model under inspection) and the head chosen there,
// recomputed stage by stage with the model's own weights on a worker (ComputationJob), and the
// cell taken apart. A weight clicked in the Attention dock's enlarged head opens its cell here
// (not while a prediction round hides the head). It asks the worker only while the dock is on
// screen (isOnScreen), and coalesces changes (the newest wins).
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

#include "app/gui/views/computation/asked_input.h"
#include "app/gui/views/computation/computation_job.h"
#include "app/gui/views/news/run_news_reader.h"

namespace ascope {

class AttentionPresenter;
class ComputationView;
class CurrentRun;

class ComputationPresenter : public QObject, public RunNewsReader {
  Q_OBJECT

 public:
  /// Follows `attention` (its head, step, sample, asked input) for the model of `run`.
  ComputationPresenter(const CurrentRun* run, AttentionPresenter* attention, QWidget* parent);

  QWidget* dockWidget() const;
  ComputationView* view() const { return view_; }
  ComputationJob* job() const { return job_; }

  /// The input now under the scope in the Attention dock came from here (until it returns to the
  /// run).
  void setAskedInput(const AskedInput& input);
  /// Takes apart cell (query, key) of the head shown (and shows the dock: dockWanted).
  void openCell(int query, int key);
  /// The cell taken apart; -1 when none.
  int cellQuery() const { return cell_query_; }
  int cellKey() const { return cell_key_; }
  /// The dock came on screen (its tab raised) or left it: asks then what the window shows.
  void dockVisibilityChanged(bool visible);
  /// The view can be seen: shown, and not a tab behind another (which Qt keeps "visible" at a
  /// place off the window). The view asks the worker only then.
  bool isOnScreen() const;
  /// Asks now what the window shows (tests and scripted mode; the dock asks by itself when shown).
  void refresh();
  /// The worker is computing, or a change waits to be asked.
  bool isBusy() const { return job_->isBusy() || debounce_.isActive(); }
  /// The shown computation's own numbers (null before any).
  const AttentionComputation* computation() const { return computation_.get(); }
  /// Milliseconds of wall-clock time the GUI thread spent on the slowest answer or click it
  /// handled (with the time it waited for a core), and of its own CPU time.
  double slowestHandlingMs() const { return slowest_ms_; }
  double slowestHandlingCpuMs() const { return slowest_cpu_ms_; }

  // RunNewsReader: it follows the Attention dock; a new run forgets the last one's computation.
  void clearRun() override;
  void takeNews(const RunNews& news) override;
  void followStep(long long step) override;
  QJsonObject report() const override;
  QList<Exportable*> exportables() const override;

 Q_SIGNALS:
  /// The dock should be shown and raised (a weight was clicked elsewhere).
  void dockWanted(const QString& dock_name);

 private:
  /// Something the computation depends on changed: ask again shortly (and only when on screen).
  void schedule();
  void askNow();
  /// The question for what the window shows; nullopt with `why` set when there is none.
  std::optional<ComputationQuestion> question(QString* why) const;
  void onComputed(std::shared_ptr<const ComputationAnswer> answer);
  void showCell(int query, int key);
  void onHeatmapClicked(int row, int col);
  /// Wall-clock and CPU time of one handling on the GUI thread (the report's gui_ms_*).
  struct HandlingTimer {
    HandlingTimer();
    QElapsedTimer wall;
    qint64 cpu_start_ns = 0;
  };
  void recordHandling(const HandlingTimer& timer);

  const CurrentRun* run_;
  AttentionPresenter* attention_;
  ComputationView* view_;
  ComputationJob* job_;
  QTimer debounce_;
  std::optional<AskedInput> asked_;
  std::optional<ComputationQuestion> last_asked_;
  std::shared_ptr<const AttentionComputation> computation_;
  std::shared_ptr<const ComputationAnswer> answer_;
  int cell_query_ = -1;
  int cell_key_ = -1;
  bool cell_wanted_ = false;
  /// Told by the dock (QDockWidget::visibilityChanged: a tab behind another stays "visible"
  /// to Qt); true for a view that is not docked.
  bool on_screen_ = true;  ///< a clicked cell waits for the computation it belongs to
  double slowest_ms_ = 0;
  double slowest_cpu_ms_ = 0;
  double last_ms_ = 0;
  double last_cpu_ms_ = 0;
  double total_ms_ = 0;
  int handled_ = 0;
};

}  // namespace ascope
