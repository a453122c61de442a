#pragma once
// The one owner of the docks that measure heads: the Heads dock (per-head statistics over
// training, live from the bridge or from an opened run's head_stats.csv, and the notes on heads
// that changed kind) and the Ablation dock (a head ablation of the run's newest checkpoint, on a
// worker thread). A head picked in either is shown in the Attention dock, at the picked step.
#include <QJsonObject>
#include <QObject>

#include <optional>
#include <string>
#include <vector>

#include "app/gui/views/common/export_source.h"
#include "app/gui/window/jobs/ablation_job.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"

class QWidget;

namespace ascope {

class AttentionTimelineView;
class CurrentRun;
class EngineBridge;
class HeadAblationTable;
class HeadStatsGridPanel;

class HeadAnalysisController : public QObject, public ExportSource {
  Q_OBJECT

 public:
  /// Creates both docks' panels (children of `panel_parent`); a head picked in them is shown in
  /// `attention`.
  HeadAnalysisController(AttentionTimelineView* attention, CurrentRun* run, EngineBridge* bridge,
                         QWidget* panel_parent);

  HeadStatsGridPanel* heads() const { return heads_; }
  HeadAblationTable* ablation() const { return ablation_table_; }
  QList<Exportable*> exportables() const override;
  /// "ablation_rows", "head_stats_probes": what the two docks hold.
  QJsonObject report() const;

  void clear();
  /// An opened run's statistics (head_stats.csv), with the notes a live run would have made, and
  /// its last ablation (ablation.csv) when it has one.
  void showOpened(const std::string& task, const std::vector<HeadStatsRow>& rows,
                  const std::optional<AblationTable>& ablation);
  void setCursorStep(long long step);

 Q_SIGNALS:
  /// A person asked to see a dock (the Attention dock, after picking a head).
  void dockWanted(const QString& object_name);

 private:
  /// Selects group (by its title), layer and head in the Attention dock; step ≥ 0 also moves
  /// the timeline there.
  void showHead(const QString& group, int layer, int head, long long step);
  void startAblation(int samples);

  AttentionTimelineView* attention_;
  CurrentRun* run_;
  HeadStatsGridPanel* heads_;
  HeadAblationTable* ablation_table_;
  AblationJob ablation_;
};

}  // namespace ascope
