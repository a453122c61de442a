#include "app/gui/views/attention_timeline_view.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
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

#include <algorithm>
#include <cstdlib>

namespace ascope {

namespace {

/// Between two frames of Play: long enough to read a head, short enough to see it learn.
constexpr int kPlayIntervalMs = 450;
/// Live probes up to this many weights (a few milliseconds of copying) are converted on the GUI
/// thread, at once; larger ones on a worker.
constexpr std::size_t kConvertHereWeights = std::size_t{1} << 20;

}  // namespace

AttentionTimelineView::AttentionTimelineView(const CurrentRun* run, QWidget* parent)
    : QWidget(parent), run_(run) {
  panel_ = new AttentionHeadGridPanel(this);
  panel_->setObjectName(QStringLiteral("attentionPanel"));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName(QStringLiteral("attentionTimeline"));
  slider_->setRange(0, 0);
  slider_->setPageStep(1);
  slider_->setToolTip(
      tr("Stored snapshots of the run, by training step: every dock shows the chosen step "
         "(←/→ step, Home/End jump, or click a curve)"));
  label_ = new QLabel(this);
  label_->setMinimumWidth(
      label_->fontMetrics().horizontalAdvance(QStringLiteral("step 0000000 · 000/000")));
  play_button_ = new QToolButton(this);
  play_button_->setObjectName(QStringLiteral("timelinePlay"));
  play_button_->setText(tr("▶ Play"));
  play_button_->setCheckable(true);
  play_button_->setToolTip(tr("Animate the run's snapshots, step by step"));
  live_button_ = new QToolButton(this);
  live_button_->setText(tr("Live"));
  live_button_->setCheckable(true);
  live_button_->setChecked(true);
  live_button_->setToolTip(tr("Follow the newest probe of the running training"));

  asked_bar_ = new QWidget(this);
  asked_bar_->setObjectName(QStringLiteral("askedBar"));
  asked_label_ = new QLabel(asked_bar_);
  asked_label_->setObjectName(QStringLiteral("askedCaption"));
  asked_label_->setWordWrap(true);
  asked_label_->setTextFormat(Qt::RichText);
  back_button_ = new QPushButton(tr("Back to the run"), asked_bar_);
  back_button_->setObjectName(QStringLiteral("backToRun"));
  back_button_->setToolTip(tr("Show the run's probe sample at the timeline's step again"));
  auto* asked_layout = new QHBoxLayout(asked_bar_);
  asked_layout->setContentsMargins(8, 2, 8, 2);
  asked_layout->addWidget(asked_label_, 1);
  asked_layout->addWidget(back_button_);
  asked_bar_->setAutoFillBackground(true);
  QPalette highlight = asked_bar_->palette();
  highlight.setColor(QPalette::Window, highlight.color(QPalette::AlternateBase));
  asked_bar_->setPalette(highlight);
  asked_bar_->hide();

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 0);
  bar->addWidget(new QLabel(tr("Timeline"), this));
  bar->addWidget(play_button_);
  bar->addWidget(slider_, 1);
  bar->addWidget(label_);
  bar->addWidget(live_button_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(asked_bar_);
  layout->addWidget(panel_, 1);

  play_timer_.setInterval(kPlayIntervalMs);
  connect(&play_timer_, &QTimer::timeout, this, &AttentionTimelineView::onPlayTick);
  connect(play_button_, &QToolButton::toggled, this, &AttentionTimelineView::setPlaying);
  connect(slider_, &QSlider::valueChanged, this, &AttentionTimelineView::onSliderMoved);
  connect(live_button_, &QToolButton::clicked, this, [this](bool on) {
    if (!on) {
      live_button_->setChecked(true);  // "live" is left by moving the slider, not the button
      return;
    }
    setPlaying(false);
    following_ = true;
    refreshFiles();
    if (showing_asked_) {
      returnToRun();
    } else if (has_live_) {
      showLive();
    }
    updateLabel();
  });
  connect(back_button_, &QPushButton::clicked, this, &AttentionTimelineView::returnToRun);
  connect(&watcher_, &QFutureWatcher<LoadResult>::finished, this, &AttentionTimelineView::onLoaded);
  connect(&list_watcher_, &QFutureWatcher<std::vector<AttentionFileEntry>>::finished, this,
          &AttentionTimelineView::onListed);
  connect(&live_watcher_, &QFutureWatcher<AttentionPlotData>::finished, this,
          &AttentionTimelineView::onLiveConverted);
  connect(run_, &CurrentRun::folderChanged, this, &AttentionTimelineView::refreshFiles);
  updateLabel();
}

AttentionTimelineView::~AttentionTimelineView() {
  watcher_.waitForFinished();
  list_watcher_.waitForFinished();
  live_watcher_.waitForFinished();
}

void AttentionTimelineView::setLiveSnapshot(const AttentionSnapshot& snapshot) {
  refreshFiles();
  std::size_t weights = 0;
  for (const AttentionGroup& group : snapshot.groups) {
    for (const AttentionMap& map : group.maps) weights += map.values.size();
  }
  if (weights <= kConvertHereWeights && !converting_live_) {
    acceptLive(toAttentionPlotData(snapshot));
    return;
  }
  if (converting_live_) {
    pending_live_ = snapshot;  // the newest wins; the one being converted is shown first
    return;
  }
  converting_live_ = true;
  live_watcher_.setFuture(QtConcurrent::run([snapshot] { return toAttentionPlotData(snapshot); }));
}

void AttentionTimelineView::onLiveConverted() {
  if (!converting_live_) return;  // cleared meanwhile
  converting_live_ = false;
  acceptLive(live_watcher_.result());
  if (pending_live_) {
    AttentionSnapshot next = std::move(*pending_live_);
    pending_live_.reset();
    setLiveSnapshot(next);
  }
}

void AttentionTimelineView::acceptLive(AttentionPlotData data) {
  live_ = std::move(data);
  has_live_ = true;
  if (!following_ || showing_asked_) return;
  showLive();
}

void AttentionTimelineView::showLive() {
  following_ = true;
  live_button_->setChecked(true);
  showSnapshot(live_);
  shown_step_ = live_.step;
  updateLabel();
  Q_EMIT liveShown(shown_step_);
}

void AttentionTimelineView::showRun(std::vector<AttentionFileEntry> files,
                                    const AttentionPlotData& newest) {
  has_live_ = false;
  following_ = true;
  setFiles(std::move(files));
  showSnapshot(newest);
  shown_step_ = newest.step;
  live_button_->setEnabled(false);
  updateLabel();
}

void AttentionTimelineView::clear() {
  setPlaying(false);
  watcher_.waitForFinished();
  list_watcher_.waitForFinished();
  live_watcher_.waitForFinished();
  converting_live_ = false;
  pending_live_.reset();
  files_.clear();
  has_live_ = false;
  following_ = true;
  group_chosen_ = false;
  showing_asked_ = false;
  asked_bar_->hide();
  shown_step_ = -1;
  pending_path_.clear();
  list_again_ = false;
  listing_ = loading_ = false;  // their handlers will still run and find nothing to do
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
  if (list_watcher_.isRunning()) {
    list_again_ = true;  // one more listing once this one is back: it may predate a new file
    return;
  }
  list_again_ = false;
  listing_ = true;
  const std::string folder = run_->folder().toStdString();
  list_watcher_.setFuture(QtConcurrent::run([folder] { return listAttentionFiles(folder); }));
}

void AttentionTimelineView::onListed() {
  if (!listing_) return;  // cleared meanwhile: the listing was of the previous run
  listing_ = false;
  setFiles(list_watcher_.result());
  if (list_again_) refreshFiles();
}

void AttentionTimelineView::setFiles(std::vector<AttentionFileEntry> files) {
  files_ = std::move(files);
  const QSignalBlocker block(slider_);
  const bool at_end = slider_->value() == slider_->maximum();
  slider_->setRange(0, std::max(0, snapshotCount() - 1));
  if (following_ || at_end) slider_->setValue(slider_->maximum());
  updateLabel();
}

void AttentionTimelineView::onSliderMoved(int index) {
  if (index < 0 || index >= snapshotCount()) return;
  if (showing_asked_) {
    showing_asked_ = false;
    asked_bar_->hide();
    Q_EMIT askedShown(false);
  }
  const bool newest = index == slider_->maximum();
  if (newest && has_live_) {
    showLive();
    return;
  }
  following_ = false;
  live_button_->setChecked(false);
  load(QString::fromStdString(files_[static_cast<std::size_t>(index)].path));
}

void AttentionTimelineView::showStep(long long step) {
  if (files_.empty()) return;
  std::size_t nearest = 0;
  for (std::size_t i = 1; i < files_.size(); ++i) {
    if (std::llabs(files_[i].step - step) < std::llabs(files_[nearest].step - step)) nearest = i;
  }
  const int index = static_cast<int>(nearest);
  if (slider_->value() == index) {
    onSliderMoved(index);  // same place: still leaves an asked input or reloads the step
  } else {
    slider_->setValue(index);
  }
}

void AttentionTimelineView::stepBy(int delta) {
  if (files_.empty()) return;
  const int index = std::clamp(slider_->value() + delta, 0, slider_->maximum());
  if (index != slider_->value()) slider_->setValue(index);
}

void AttentionTimelineView::showFirst() {
  if (!files_.empty()) slider_->setValue(0);
}

void AttentionTimelineView::showLast() {
  if (!files_.empty()) slider_->setValue(slider_->maximum());
}

void AttentionTimelineView::setPlaying(bool on) {
  {
    const QSignalBlocker block(play_button_);
    play_button_->setChecked(on && snapshotCount() > 1);
    play_button_->setText(play_button_->isChecked() ? tr("⏸ Pause") : tr("▶ Play"));
  }
  if (!on || snapshotCount() < 2) {
    play_timer_.stop();
    return;
  }
  if (slider_->value() == slider_->maximum()) slider_->setValue(0);
  play_timer_.start();
}

void AttentionTimelineView::onPlayTick() {
  if (watcher_.isRunning() || !pending_path_.isEmpty()) return;  // let each frame be seen
  if (slider_->value() >= slider_->maximum()) {
    setPlaying(false);
    return;
  }
  slider_->setValue(slider_->value() + 1);
}

void AttentionTimelineView::showAsked(AttentionPlotData data, const QString& caption) {
  setPlaying(false);
  showing_asked_ = true;
  asked_label_->setText(caption);
  asked_bar_->show();
  showSnapshot(data, false);
  updateLabel();
  Q_EMIT askedShown(true);
}

void AttentionTimelineView::returnToRun() {
  if (!showing_asked_) return;
  showing_asked_ = false;
  asked_bar_->hide();
  Q_EMIT askedShown(false);
  if (following_ && has_live_) {
    showLive();
  } else if (!files_.empty()) {
    load(QString::fromStdString(files_[static_cast<std::size_t>(slider_->value())].path));
  } else {
    panel_->clear();
    shown_step_ = -1;
  }
  updateLabel();
}

void AttentionTimelineView::load(QString path) {  // by value: callers pass pending_path_
  if (watcher_.isRunning()) {
    pending_path_ = path;  // the newest request wins; intermediate ones are skipped
    return;
  }
  pending_path_.clear();
  loading_ = true;
  watcher_.setFuture(QtConcurrent::run([path] {
    LoadResult result;
    result.path = path;
    Expected<AttentionSnapshot> snapshot = readAttentionSnapshot(path.toStdString());
    if (snapshot.ok()) {
      result.data = toAttentionPlotData(*snapshot);
      result.sample = std::move(snapshot->sample);
      result.positional_encoding = std::move(snapshot->positional_encoding);
    } else {
      result.error = QString::fromStdString(snapshot.error());
    }
    return result;
  }));
}

void AttentionTimelineView::onLoaded() {
  if (!loading_) return;  // cleared meanwhile
  loading_ = false;
  LoadResult result = watcher_.result();
  if (!pending_path_.isEmpty() && pending_path_ != result.path) {
    load(pending_path_);
    return;
  }
  pending_path_.clear();
  if ((following_ && has_live_) || showing_asked_) return;  // left the timeline meanwhile
  if (result.data) {
    showSnapshot(*result.data);
    shown_step_ = result.data->step;
    label_->setToolTip(QString());
    Q_EMIT stepShown(shown_step_, result.sample, result.positional_encoding);
  } else {
    label_->setToolTip(result.error);
  }
  updateLabel();
}

void AttentionTimelineView::waitForLoad() {
  while (loading_ || listing_ || !pending_path_.isEmpty() || converting_live_) {
    watcher_.waitForFinished();
    list_watcher_.waitForFinished();
    live_watcher_.waitForFinished();
    QCoreApplication::processEvents();
  }
}

void AttentionTimelineView::showSnapshot(const AttentionPlotData& snapshot, bool part_of_run) {
  panel_->setSnapshot(snapshot, part_of_run);
  Q_EMIT attentionShown(snapshot);
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
  play_button_->setEnabled(snapshotCount() > 1);
  if (showing_asked_) {
    label_->setText(tr("your input"));
    return;
  }
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
