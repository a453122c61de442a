#pragma once
// Two runs side by side (File → Compare with run…): loss and accuracy of both overlaid with a
// legend, the attention of the same probe sample at the same step in both runs and as a
// difference map A − B (diverging colours around 0, one scale for every step, layer and head of a
// group), and the settings in which the runs differ. Everything is read on a worker thread.
#include <QFutureWatcher>
#include <QWidget>

#include "app/gui/window/jobs/run_comparison_job.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace ascope {

class HeatmapView;
class RunOverlayPlot;

class RunComparisonWindow : public QWidget {
  Q_OBJECT

 public:
  explicit RunComparisonWindow(QWidget* parent = nullptr);
  ~RunComparisonWindow() override;

  /// Reads both folders on a worker, then shows them (compared or failed follows) at the paired
  /// step nearest `step` (the newest when negative).
  void compare(const QString& dir_a, const QString& dir_b, long long step = -1);
  /// Blocks until pending reads have been shown (tests, scripted mode).
  void waitForLoad();
  /// Lays out and draws every plot at once (queued replots have not run before a screenshot).
  void replotNow();

  /// The step shown, among the steps both runs have a snapshot of.
  void showStep(long long step);
  /// The paired step nearest `step`: the comparison follows the main window's timeline.
  void showNearestStep(long long step);
  /// The curves' smoothing, as the main window's curves have it.
  void setSmoothing(double weight);
  void setProbeIndex(int index);
  void setHead(int group, int layer, int head);

  const RunComparisonData& data() const { return data_; }
  const ComparedStep& shownStep() const { return step_; }
  RunOverlayPlot* lossPlot() const { return loss_; }
  RunOverlayPlot* accuracyPlot() const { return accuracy_; }
  QTableWidget* settingsTable() const { return settings_; }
  HeatmapView* mapA() const { return map_a_; }
  HeatmapView* mapB() const { return map_b_; }
  HeatmapView* differenceMap() const { return difference_; }
  QLabel* problemLabel() const { return problem_; }
  /// The difference map's colour range is ±this.
  double differenceScale() const { return scale_; }

 Q_SIGNALS:
  void compared();
  void failed(const QString& message);

 private:
  void onLoaded();
  void onStepLoaded();
  void loadStep();
  void showHead();
  void fillSettings();
  void fillCurves();
  /// Index in the step list of the paired step nearest `step` (-1 when there is none).
  int nearestStepIndex(long long step) const;

  QFutureWatcher<RunComparisonData> load_watcher_;
  QFutureWatcher<ComparedStep> step_watcher_;
  bool loading_ = false;  // set when a job starts, cleared by its handler
  bool loading_step_ = false;
  bool step_again_ = false;  // another step was chosen while one was loading
  RunComparisonData data_;
  ComparedStep step_;
  int probe_index_ = 0;
  long long wanted_step_ = -1;  ///< the step to show first once a comparison is read
  double scale_ = 0.0;

  QLabel* title_ = nullptr;
  RunOverlayPlot* loss_ = nullptr;
  RunOverlayPlot* accuracy_ = nullptr;
  QTableWidget* settings_ = nullptr;
  QComboBox* step_box_ = nullptr;
  QComboBox* probe_box_ = nullptr;
  QComboBox* group_box_ = nullptr;
  QSpinBox* layer_box_ = nullptr;
  QSpinBox* head_box_ = nullptr;
  HeatmapView* map_a_ = nullptr;
  HeatmapView* map_b_ = nullptr;
  HeatmapView* difference_ = nullptr;
  QLabel* problem_ = nullptr;
};

}  // namespace ascope
