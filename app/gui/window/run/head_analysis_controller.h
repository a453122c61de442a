#pragma once
// Feeds the docks that measure heads: the Heads dock (per-head statistics over training, live from
// the bridge or from an opened run's head_stats.csv, and the notes on heads that changed kind) and
// the Ablation dock (a head ablation of the run's newest checkpoint, on a worker thread). A head
// picked in either is shown in the Attention dock, at the picked step.
#include <QObject>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/window/jobs/ablation_job.h"
#include "app/gui/window/main/panels.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"

namespace ascope {

class CurrentRun;
class EngineBridge;

class HeadAnalysisController : public QObject {
  Q_OBJECT

 public:
  HeadAnalysisController(const Panels& panels, CurrentRun* run, EngineBridge* bridge,
                         QObject* parent = nullptr);

  void clear();
  /// An opened run's statistics (head_stats.csv), with the notes a live run would have made, and
  /// its last ablation (ablation.csv) when it has one.
  void showOpened(const std::string& task, const std::vector<HeadStatsRow>& rows,
                  const std::optional<AblationTable>& ablation);
  void setCursorStep(long long step);

  /// Asked before an ablation reads an opened run's data, which its config.json names (`paths`,
  /// one per line): true to read it. Without one (scripted mode) such data is read only when
  /// named with setNamedData: a run folder never has a file opened on its own.
  void setDataConfirmation(std::function<bool(const QString& paths)> confirm);
  /// The data set the user named for the shown run (the scripted --data): ablations read it.
  void setNamedData(const QString& data);

 Q_SIGNALS:
  /// A person asked to see a dock (the Attention dock, after picking a head).
  void dockWanted(const QString& object_name);

 private:
  /// Selects group (by its title), layer and head in the Attention dock; step ≥ 0 also moves
  /// the timeline there.
  void showHead(const QString& group, int layer, int head, long long step);
  void startAblation(int samples);

  Panels panels_;
  CurrentRun* run_;
  AblationJob ablation_;
  std::function<bool(const QString&)> confirm_data_;
  QString named_data_;
};

}  // namespace ascope
