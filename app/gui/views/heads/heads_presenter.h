#pragma once
// The one owner of the docks that measure heads: the Heads dock (per-head statistics over
// training, from the run's news: live, opened or followed, and the notes on heads
// that changed kind) and the Ablation dock (a head ablation of the run's newest checkpoint, on a
// worker thread). A head picked in either is shown in the Attention dock, at the picked step.
#include <QJsonObject>
#include <QObject>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/bridge/ablation_job.h"
#include "app/gui/views/news/run_news_reader.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"

class QWidget;

namespace ascope {

class AttentionPresenter;
class CurrentRun;
class HeadAblationTable;
class HeadStatsGridPanel;

class HeadsPresenter : public QObject, public RunNewsReader {
  Q_OBJECT

 public:
  /// Creates both docks' panels (children of `panel_parent`); a head picked in them is shown in
  /// `attention`.
  HeadsPresenter(AttentionPresenter* attention, CurrentRun* run, QWidget* panel_parent);

  HeadStatsGridPanel* heads() const { return heads_; }
  HeadAblationTable* ablation() const { return ablation_table_; }
  QList<Exportable*> exportables() const override;
  /// "ablation_rows", "head_stats_probes": what the two docks hold.
  QJsonObject report() const override;

  void clear();
  // RunNewsReader: head statistics (live updates, an opened run's rows, a followed run's new
  // rows) and the stored ablation; the grid's cursor follows the timeline.
  void clearRun() override;
  void takeNews(const RunNews& news) override;
  void followStep(long long step) override;
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
  // A followed run's head statistics so far (the grid is redrawn from all of them).
  std::vector<HeadStatsRow> followed_rows_;

  /// Selects group (by its title), layer and head in the Attention dock; step ≥ 0 also moves
  /// the timeline there.
  void showHead(const QString& group, int layer, int head, long long step);
  void startAblation(int samples);

  AttentionPresenter* attention_;
  CurrentRun* run_;
  HeadStatsGridPanel* heads_;
  HeadAblationTable* ablation_table_;
  AblationJob ablation_;
  std::function<bool(const QString&)> confirm_data_;
  QString named_data_;
};

}  // namespace ascope
