#include "app/gui/views/attention_timeline_view.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention_plot_conversion.h"
#include "engine/run/run_folder.h"
#include "widgets/attention_head_grid.h"
#include "widgets/attention_head_grid_panel.h"

namespace ascope {

AttentionTimelineView::AttentionTimelineView(const CurrentRun* run, QWidget* parent)
    : QWidget(parent), run_(run) {
  panel_ = new AttentionHeadGridPanel(this);
  panel_->setObjectName(QStringLiteral("attentionPanel"));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName(QStringLiteral("attentionTimeline"));
  slider_->setRange(0, 0);
  slider_->setPageStep(1);
  slider_->setToolTip(tr("Stored attention snapshots of the run, by training step"));
  label_ = new QLabel(this);
  label_->setMinimumWidth(
      label_->fontMetrics().horizontalAdvance(QStringLiteral("step 0000000 · 000/000")));
  live_button_ = new QToolButton(this);
  live_button_->setText(tr("Live"));
  live_button_->setCheckable(true);
  live_button_->setChecked(true);
  live_button_->setToolTip(tr("Follow the newest probe of the running training"));

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 0);
  bar->addWidget(new QLabel(tr("Timeline"), this));
  bar->addWidget(slider_, 1);
  bar->addWidget(label_);
  bar->addWidget(live_button_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(panel_, 1);

  connect(slider_, &QSlider::valueChanged, this, &AttentionTimelineView::onSliderMoved);
  connect(live_button_, &QToolButton::clicked, this, [this](bool on) {
    if (!on) {
      live_button_->setChecked(true);  // "live" is left by moving the slider, not the button
      return;
    }
    following_ = true;
    refreshFiles();
    if (has_live_) showSnapshot(live_);
    shown_step_ = has_live_ ? live_.step : -1;
    updateLabel();
  });
  connect(&watcher_, &QFutureWatcher<LoadResult>::finished, this, &AttentionTimelineView::onLoaded);
  connect(run_, &CurrentRun::folderChanged, this, &AttentionTimelineView::refreshFiles);
  updateLabel();
}

AttentionTimelineView::~AttentionTimelineView() {
  watcher_.waitForFinished();
}

void AttentionTimelineView::setLiveSnapshot(const AttentionSnapshot& snapshot) {
  live_ = toAttentionPlotData(snapshot);
  has_live_ = true;
  if (!following_) return;
  showSnapshot(live_);
  shown_step_ = live_.step;
  refreshFiles();
}

void AttentionTimelineView::showRun(std::vector<AttentionFileEntry> files,
                                    const AttentionPlotData& newest) {
  has_live_ = false;
  following_ = true;
  files_ = std::move(files);
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, snapshotCount() - 1));
    slider_->setValue(slider_->maximum());
  }
  showSnapshot(newest);
  shown_step_ = newest.step;
  live_button_->setEnabled(false);
  updateLabel();
}

void AttentionTimelineView::clear() {
  watcher_.waitForFinished();
  files_.clear();
  has_live_ = false;
  following_ = true;
  group_chosen_ = false;
  shown_step_ = -1;
  pending_path_.clear();
  live_ = AttentionPlotData{};
  panel_->clear();
  live_button_->setEnabled(true);
  live_button_->setChecked(true);
  const QSignalBlocker block(slider_);
  slider_->setRange(0, 0);
  updateLabel();
}

void AttentionTimelineView::refreshFiles() {
  if (run_->folder().isEmpty()) return;
  files_ = listAttentionFiles(run_->folder().toStdString());
  const QSignalBlocker block(slider_);
  const bool at_end = slider_->value() == slider_->maximum();
  slider_->setRange(0, std::max(0, snapshotCount() - 1));
  if (following_ || at_end) slider_->setValue(slider_->maximum());
  updateLabel();
}

void AttentionTimelineView::onSliderMoved(int index) {
  if (index < 0 || index >= snapshotCount()) return;
  const bool newest = index == slider_->maximum();
  if (newest && has_live_) {
    following_ = true;
    live_button_->setChecked(true);
    showSnapshot(live_);
    shown_step_ = live_.step;
    updateLabel();
    return;
  }
  following_ = false;
  live_button_->setChecked(false);
  load(QString::fromStdString(files_[static_cast<std::size_t>(index)].path));
}

void AttentionTimelineView::load(QString path) {  // by value: callers pass pending_path_
  if (watcher_.isRunning()) {
    pending_path_ = path;  // the newest request wins; intermediate ones are skipped
    return;
  }
  pending_path_.clear();
  watcher_.setFuture(QtConcurrent::run([path] {
    LoadResult result;
    result.path = path;
    Expected<AttentionSnapshot> snapshot = readAttentionSnapshot(path.toStdString());
    if (snapshot.ok()) {
      result.data = toAttentionPlotData(*snapshot);
    } else {
      result.error = QString::fromStdString(snapshot.error());
    }
    return result;
  }));
}

void AttentionTimelineView::onLoaded() {
  LoadResult result = watcher_.result();
  if (!pending_path_.isEmpty() && pending_path_ != result.path) {
    load(pending_path_);
    return;
  }
  if (following_ && has_live_) return;  // went back to live meanwhile
  if (result.data) {
    showSnapshot(*result.data);
    shown_step_ = result.data->step;
    Q_EMIT snapshotShown(shown_step_);
  } else {
    label_->setToolTip(result.error);
  }
  updateLabel();
}

void AttentionTimelineView::waitForLoad() {
  while (watcher_.isRunning() || !pending_path_.isEmpty()) {
    watcher_.waitForFinished();
    QCoreApplication::processEvents();
  }
}

void AttentionTimelineView::showSnapshot(const AttentionPlotData& snapshot) {
  panel_->setSnapshot(snapshot);
  if (!group_chosen_ && !snapshot.groups.empty()) {
    // Translation opens on cross attention: target tokens looking at source tokens is what the
    // lecture is about. Later snapshots keep whatever group the user picks.
    group_chosen_ = true;
    for (std::size_t g = 0; g < snapshot.groups.size(); ++g) {
      if (snapshot.groups[g].name == QLatin1String("cross")) {
        panel_->setCurrentGroup(static_cast<int>(g));
      }
    }
  }
  if (balanced_ || snapshot.groups.empty()) return;
  // The panel's grid | enlarged-head splitter takes its first proportions while the panel still
  // shows its empty hint, which leaves the head grid too narrow for its title; split evenly once.
  if (auto* split = qobject_cast<QSplitter*>(panel_->headGrid()->parentWidget())) {
    QTimer::singleShot(0, split, [split] {
      const int width = split->width();
      split->setSizes({width / 2, width - width / 2});
    });
    balanced_ = true;
  }
}

void AttentionTimelineView::updateLabel() {
  slider_->setEnabled(snapshotCount() > 1);
  if (shown_step_ < 0) {
    label_->setText(tr("no snapshot yet"));
    return;
  }
  const QString where =
      snapshotCount() > 0
          ? QStringLiteral(" · %1/%2").arg(slider_->value() + 1).arg(snapshotCount())
          : QString();
  label_->setText(tr("step %1").arg(shown_step_) + where);
}

}  // namespace ascope
