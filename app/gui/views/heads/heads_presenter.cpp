#include "app/gui/views/heads/heads_presenter.h"

#include <QStringList>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/heads/ablation_conversion.h"
#include "app/gui/views/heads/head_stats_conversion.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/tables/head_ablation_table.h"
#include "widgets/tables/head_stats_grid_panel.h"

namespace ascope {

HeadsPresenter::HeadsPresenter(AttentionPresenter* attention, CurrentRun* run,
                               QWidget* panel_parent)
    : QObject(panel_parent), attention_(attention), run_(run) {
  heads_ = new HeadStatsGridPanel(panel_parent);
  heads_->setObjectName(QStringLiteral("headStatsPanel"));
  ablation_table_ = new HeadAblationTable(panel_parent);
  ablation_table_->setObjectName(QStringLiteral("ablationPanel"));
  heads_->setMetrics(headStatsMetrics());
  connect(heads_, &HeadStatsGridPanel::headPicked, this,
          [this](const QString& group, int layer, int head, qint64 step) {
            showHead(group, layer, head, step);
          });
  connect(ablation_table_, &HeadAblationTable::headPicked, this,
          [this](const QString& group, int layer, int head) {
            showHead(group, layer, std::max(0, head), -1);
          });
  connect(ablation_table_, &HeadAblationTable::runRequested, this, &HeadsPresenter::startAblation);
  connect(ablation_table_, &HeadAblationTable::cancelRequested, &ablation_, &AblationJob::cancel);
  connect(&ablation_, &AblationJob::progress, ablation_table_, &HeadAblationTable::setProgress);
  connect(
      &ablation_, &AblationJob::finished, this,
      [this](bool ok, const AblationTable& table, const QString& error) {
        ablation_table_->setRunning(false);
        if (!ok) {
          ablation_table_->setMessage(error);
          return;
        }
        ablation_table_->setResult(toHeadAblationData(run_->config().task, table));
        ablation_table_->setMessage(tr("Checkpoint of step %1; table written to %2/ablation.csv")
                                        .arg(table.step)
                                        .arg(run_->folder()));
      });
}

QList<Exportable*> HeadsPresenter::exportables() const {
  // Each once it has something to show (they were missing from the bundle).
  QList<Exportable*> out;
  if (!heads_->store().isEmpty()) out.push_back(heads_);
  if (!ablation_table_->result().rows.empty()) out.push_back(ablation_table_);
  return out;
}

QJsonObject HeadsPresenter::report() const {
  return {
      {QStringLiteral("ablation_rows"), static_cast<int>(ablation_table_->result().rows.size())},
      {QStringLiteral("head_stats_probes"), static_cast<int>(heads_->store().steps().size())}};
}

void HeadsPresenter::clear() {
  heads_->clear();
  ablation_.cancel();
  ablation_table_->clear();
}

void HeadsPresenter::showOpened(const std::string& task, const std::vector<HeadStatsRow>& rows,
                                const std::optional<AblationTable>& ablation) {
  HeadStatsHistory history = toHeadStatsHistory(task, rows);
  heads_->setStatistics(history.probes);
  heads_->setNotes(std::move(history.notes));
  if (ablation) {
    ablation_table_->setResult(toHeadAblationData(task, *ablation));
    ablation_table_->setMessage(
        tr("The run's last ablation (ablation.csv); run it again to "
           "measure the newest checkpoint."));
  }
}

void HeadsPresenter::setDataConfirmation(std::function<bool(const QString&)> confirm) {
  confirm_data_ = std::move(confirm);
}

void HeadsPresenter::setNamedData(const QString& data) {
  named_data_ = data;
}

void HeadsPresenter::setCursorStep(long long step) {
  heads_->setCursorStep(step);
}

void HeadsPresenter::showHead(const QString& group, int layer, int head, long long step) {
  AttentionHeadGridPanel* attention = attention_->panel();
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
  if (step >= 0) attention_->showStep(step);
  Q_EMIT dockWanted(QStringLiteral("attentionDock"));
}

void HeadsPresenter::startAblation(int samples) {
  if (run_->folder().isEmpty()) {
    ablation_table_->setMessage(
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
      ablation_table_->setMessage(QString::fromStdString(
          unnamedDataMessage(config, run_->folder().toStdString() + "/config.json",
                             "confirm it when asked (or give --data PATH with --open)")));
      return;
    }
  }
  if (!ablation_.start(run_->folder(), samples, data)) return;
  ablation_table_->setMessage(QString());
  ablation_table_->setRunning(true);
}

void HeadsPresenter::clearRun() {
  followed_rows_.clear();
  clear();
}

void HeadsPresenter::takeNews(const RunNews& news) {
  if (news.opened) {
    followed_rows_ = news.head_rows;
    showOpened(news.task, news.head_rows, news.ablation);
  } else if (!news.head_rows.empty()) {
    followed_rows_.insert(followed_rows_.end(), news.head_rows.begin(), news.head_rows.end());
    showOpened(news.task, followed_rows_, std::nullopt);
  }
  for (const HeadStatisticsUpdate& update : news.head_updates) {
    heads_->appendStatistics(update.step, toHeadStatsPoints(news.task, update.values));
    for (const HeadKindChange& change : update.changes) {
      heads_->addNote(toHeadKindNote(news.task, change));
    }
  }
}

void HeadsPresenter::followStep(long long step) {
  setCursorStep(step);
}

}  // namespace ascope
