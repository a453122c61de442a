#include "app/gui/window/run/head_analysis_controller.h"

#include <QStringList>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/ablation_conversion.h"
#include "app/gui/views/head_stats_conversion.h"
#include "app/gui/views/timeline/attention_timeline_view.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/tables/head_ablation_table.h"
#include "widgets/tables/head_stats_grid_panel.h"

namespace ascope {

HeadAnalysisController::HeadAnalysisController(const Panels& panels, CurrentRun* run,
                                               EngineBridge* bridge, QObject* parent)
    : QObject(parent), panels_(panels), run_(run) {
  panels_.heads->setMetrics(headStatsMetrics());
  connect(bridge, &EngineBridge::headStatisticsArrived, this,
          [this](const std::vector<HeadStatisticsUpdate>& updates) {
            const std::string task = run_->config().task;
            for (const HeadStatisticsUpdate& update : updates) {
              panels_.heads->appendStatistics(update.step, toHeadStatsPoints(task, update.values));
              for (const HeadKindChange& change : update.changes) {
                panels_.heads->addNote(toHeadKindNote(task, change));
              }
            }
          });
  connect(panels_.heads, &HeadStatsGridPanel::headPicked, this,
          [this](const QString& group, int layer, int head, qint64 step) {
            showHead(group, layer, head, step);
          });
  connect(panels_.ablation, &HeadAblationTable::headPicked, this,
          [this](const QString& group, int layer, int head) {
            showHead(group, layer, std::max(0, head), -1);
          });
  connect(panels_.ablation, &HeadAblationTable::runRequested, this,
          &HeadAnalysisController::startAblation);
  connect(panels_.ablation, &HeadAblationTable::cancelRequested, &ablation_, &AblationJob::cancel);
  connect(&ablation_, &AblationJob::progress, panels_.ablation, &HeadAblationTable::setProgress);
  connect(
      &ablation_, &AblationJob::finished, this,
      [this](bool ok, const AblationTable& table, const QString& error) {
        panels_.ablation->setRunning(false);
        if (!ok) {
          panels_.ablation->setMessage(error);
          return;
        }
        panels_.ablation->setResult(toHeadAblationData(run_->config().task, table));
        panels_.ablation->setMessage(tr("Checkpoint of step %1; table written to %2/ablation.csv")
                                         .arg(table.step)
                                         .arg(run_->folder()));
      });
}

void HeadAnalysisController::clear() {
  panels_.heads->clear();
  ablation_.cancel();
  panels_.ablation->clear();
}

void HeadAnalysisController::showOpened(const std::string& task,
                                        const std::vector<HeadStatsRow>& rows,
                                        const std::optional<AblationTable>& ablation) {
  HeadStatsHistory history = toHeadStatsHistory(task, rows);
  panels_.heads->setStatistics(history.probes);
  panels_.heads->setNotes(std::move(history.notes));
  if (ablation) {
    panels_.ablation->setResult(toHeadAblationData(task, *ablation));
    panels_.ablation->setMessage(
        tr("The run's last ablation (ablation.csv); run it again to "
           "measure the newest checkpoint."));
  }
}

void HeadAnalysisController::setDataConfirmation(std::function<bool(const QString&)> confirm) {
  confirm_data_ = std::move(confirm);
}

void HeadAnalysisController::setNamedData(const QString& data) {
  named_data_ = data;
}

void HeadAnalysisController::setCursorStep(long long step) {
  panels_.heads->setCursorStep(step);
}

void HeadAnalysisController::showHead(const QString& group, int layer, int head, long long step) {
  AttentionHeadGridPanel* attention = panels_.attention->panel();
  // The panel keeps group, layer and head by name across snapshots, so choosing them before the
  // step's snapshot has loaded is enough.
  for (int g = 0; g < attention->groupCount(); ++g) {
    if (attention->snapshot().groups[static_cast<std::size_t>(g)].name == group) {
      attention->setCurrentGroup(g);
      attention->setCurrentLayer(layer);
      attention->setCurrentHead(head);
      break;
    }
  }
  if (step >= 0) panels_.attention->showStep(step);
  Q_EMIT dockWanted(QStringLiteral("attentionDock"));
}

void HeadAnalysisController::startAblation(int samples) {
  if (run_->folder().isEmpty()) {
    panels_.ablation->setMessage(
        tr("Start or open a run first: ablation evaluates its newest "
           "checkpoint."));
    return;
  }
  // The run's data is read only where the user named it: trained from this window's Run dock,
  // named on the command line, or confirmed now; never on the word of an opened folder's
  // config.json alone.
  const TrainingConfig& config = run_->config();
  const std::vector<std::string> paths = dataPathsOf(config);
  QString data;
  if (!paths.empty()) {
    QStringList shown;
    for (const std::string& path : paths) shown << QString::fromStdString(path);
    if (!named_data_.isEmpty()) {
      data = named_data_;
    } else if (run_->isLive() || (confirm_data_ && confirm_data_(shown.join(QLatin1Char('\n'))))) {
      data = QString::fromStdString(config.data);
    } else {
      panels_.ablation->setMessage(QString::fromStdString(
          unnamedDataMessage(config, run_->folder().toStdString() + "/config.json",
                             "confirm it when asked (or give --data PATH with --open)")));
      return;
    }
  }
  if (!ablation_.start(run_->folder(), samples, data)) return;
  panels_.ablation->setMessage(QString());
  panels_.ablation->setRunning(true);
}

}  // namespace ascope
