#include "app/gui/views/attention_timeline_view.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention_plot_conversion.h"
#include "app/gui/views/probe_sample_caption.h"
#include "engine/runfolder/run_folder.h"
#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/common/combo_tool_tip.h"

#include <algorithm>
#include <cstdlib>

namespace ascope {

namespace {

/// Between two frames of Play: long enough to read a head, short enough to see it learn.
constexpr int kPlayIntervalMs = 450;
/// Live probes up to this much work (conversionWork: a few milliseconds) are converted on the GUI
/// thread, at once; larger ones on a worker.
constexpr double kConvertHereWork = 4.0 * (1 << 20);

/// Work of converting a snapshot with its aggregates, in multiply-adds: copying every weight,
/// and the rollout's one n×n by n×n product per layer of a self-attention group.
double conversionWork(const AttentionSnapshot& snapshot) {
  double work = 0;
  for (const AttentionGroup& group : snapshot.groups) {
    for (const AttentionMap& map : group.maps) work += static_cast<double>(map.values.size());
    if (!group.maps.empty() && group.maps.front().rows == group.maps.front().cols) {
      const double n = group.maps.front().rows;
      work += group.layers * n * n * n;
    }
  }
  return work;
}

/// The probe chooser's entries, one per sample of `probes`.
QStringList probeCaptions(const ProbeSet& probes) {
  QStringList captions;
  for (const AttentionSnapshot& sample : probes.samples) {
    captions.push_back(probeSampleCaption(sample));
  }
  return captions;
}

/// The sample `index` of a non-empty set: the last one when the set has fewer (a run probed with
/// a smaller set than the chooser's choice).
const AttentionSnapshot& chosenSnapshot(const ProbeSet& probes, int index) {
  return probes
      .samples[std::min(static_cast<std::size_t>(std::max(0, index)), probes.samples.size() - 1)];
}

/// The chosen sample, converted with aggregates.
AttentionPlotData convertSample(const ProbeSet& probes, int index,
                                const AggregateSettings& settings) {
  AttentionPlotData data = toAttentionPlotData(chosenSnapshot(probes, index));
  addAttentionAggregates(data, settings);
  return data;
}

const SamplePrediction* chosenSample(const ProbeSet& probes, int index) {
  if (probes.samples.empty()) return nullptr;
  const auto& sample = chosenSnapshot(probes, index).sample;
  return sample ? &*sample : nullptr;
}

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
  // The style's icons, not ▶/⏸: DejaVu has no ⏸, which showed as an empty box (issue 24).
  play_button_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  play_button_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  play_button_->setText(tr("Play"));
  play_button_->setCheckable(true);
  play_button_->setToolTip(tr("Animate the run's snapshots, step by step"));
  speed_box_ = new QComboBox(this);
  speed_box_->setObjectName(QStringLiteral("timelineSpeed"));
  for (double factor : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0}) {
    speed_box_->addItem(QStringLiteral("%1×").arg(factor), factor);
  }
  speed_box_->setCurrentIndex(speed_box_->findData(1.0));
  speed_box_->setToolTip(tr("How fast Play moves through the snapshots"));
  live_button_ = new QToolButton(this);
  live_button_->setText(tr("Live"));
  live_button_->setCheckable(true);
  live_button_->setChecked(true);
  live_button_->setToolTip(tr("Follow the newest probe of the running training"));
  probe_box_ = new QComboBox(this);
  probe_box_->setObjectName(QStringLiteral("probeSample"));
  // Shrinks (eliding the sample's text) before the rollout controls beside it are cut, e.g. in a
  // narrow dock or with a zoomed font.
  probe_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  probe_box_->setMinimumContentsLength(6);
  followCurrentTextInToolTip(
      probe_box_,
      tr("The validation samples probed at every step (the probe set): every dock shows the "
         "chosen one; head statistics average over all of them"));
  fusion_box_ = new QComboBox(this);
  fusion_box_->setObjectName(QStringLiteral("rolloutFusion"));
  for (HeadFusion fusion : {HeadFusion::kMean, HeadFusion::kMin, HeadFusion::kMax}) {
    fusion_box_->addItem(QString::fromLatin1(headFusionName(fusion)), static_cast<int>(fusion));
  }
  fusion_box_->setToolTip(
      tr("Rollout: how each layer's heads are fused before the layers are "
         "multiplied through (the \"… · rollout\" groups)"));
  discard_box_ = new QDoubleSpinBox(this);
  discard_box_->setObjectName(QStringLiteral("rolloutDiscard"));
  discard_box_->setRange(0.0, 0.95);
  discard_box_->setSingleStep(0.05);
  discard_box_->setDecimals(2);
  discard_box_->setToolTip(
      tr("Rollout: share of each fused layer's weakest weights set to zero before the identity "
         "for the residual is added"));

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
  bar->addWidget(speed_box_);
  bar->addWidget(slider_, 1);
  bar->addWidget(label_);
  bar->addWidget(live_button_);
  auto* choices = new QHBoxLayout;
  choices->setContentsMargins(8, 0, 8, 0);
  choices->addWidget(new QLabel(tr("Probe sample"), this));
  choices->addWidget(probe_box_, 3);
  choices->addStretch(1);
  choices->addWidget(new QLabel(tr("Rollout"), this));
  choices->addWidget(fusion_box_);
  choices->addWidget(new QLabel(tr("discard"), this));
  choices->addWidget(discard_box_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addLayout(choices);
  layout->addWidget(asked_bar_);
  layout->addWidget(panel_, 1);

  play_timer_.setInterval(kPlayIntervalMs);
  connect(&play_timer_, &QTimer::timeout, this, &AttentionTimelineView::onPlayTick);
  connect(play_button_, &QToolButton::toggled, this, &AttentionTimelineView::setPlaying);
  connect(speed_box_, qOverload<int>(&QComboBox::activated), this,
          [this](int index) { setPlaySpeed(speed_box_->itemData(index).toDouble()); });
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
  connect(probe_box_, qOverload<int>(&QComboBox::activated), this,
          &AttentionTimelineView::setProbeIndex);
  const auto settings_changed = [this] {
    AggregateSettings settings;
    settings.fusion = static_cast<HeadFusion>(fusion_box_->currentData().toInt());
    settings.discard_ratio = discard_box_->value();
    setAggregateSettings(settings);
  };
  connect(fusion_box_, qOverload<int>(&QComboBox::activated), this, settings_changed);
  connect(discard_box_, &QDoubleSpinBox::editingFinished, this, settings_changed);
  connect(&watcher_, &QFutureWatcher<LoadResult>::finished, this, &AttentionTimelineView::onLoaded);
  connect(&list_watcher_, &QFutureWatcher<std::vector<AttentionFileEntry>>::finished, this,
          &AttentionTimelineView::onListed);
  connect(&live_watcher_, &QFutureWatcher<AttentionPlotData>::finished, this,
          &AttentionTimelineView::onLiveConverted);
  connect(&asked_watcher_, &QFutureWatcher<std::pair<int, AttentionPlotData>>::finished, this,
          &AttentionTimelineView::onAskedAggregated);
  connect(run_, &CurrentRun::folderChanged, this, &AttentionTimelineView::refreshFiles);
  updateLabel();
}

AttentionTimelineView::~AttentionTimelineView() {
  watcher_.waitForFinished();
  list_watcher_.waitForFinished();
  live_watcher_.waitForFinished();
  asked_watcher_.waitForFinished();
}

void AttentionTimelineView::setLiveSnapshot(const ProbeSet& probes) {
  if (probes.samples.empty()) return;
  refreshFiles();
  live_probes_ = probes;
  if (following_ && !showing_asked_) listProbeSamples(probeCaptions(probes));
  convertLive();
}

void AttentionTimelineView::convertLive() {
  if (!live_probes_) return;
  if (converting_live_) {
    live_pending_ = true;  // the newest wins; the one being converted is shown first
    return;
  }
  if (conversionWork(chosenSnapshot(*live_probes_, probe_index_)) <= kConvertHereWork) {
    acceptLive(convertSample(*live_probes_, probe_index_, aggregate_settings_));
    return;
  }
  converting_live_ = true;
  live_watcher_.setFuture(QtConcurrent::run(
      [probes = *live_probes_, index = probe_index_, settings = aggregate_settings_] {
        return convertSample(probes, index, settings);
      }));
}

void AttentionTimelineView::onLiveConverted() {
  if (!converting_live_) return;  // cleared meanwhile
  converting_live_ = false;
  acceptLive(live_watcher_.result());
  if (live_pending_) {
    live_pending_ = false;
    convertLive();
  }
}

void AttentionTimelineView::listProbeSamples(const QStringList& captions) {
  QStringList shown;
  for (int i = 0; i < probe_box_->count(); ++i) shown.push_back(probe_box_->itemText(i));
  if (shown == captions) return;
  const QSignalBlocker block(probe_box_);
  probe_box_->clear();
  probe_box_->addItems(captions);
  probe_box_->setCurrentIndex(std::min(probe_index_, static_cast<int>(captions.size()) - 1));
  refreshCurrentTextToolTip(probe_box_);
}

void AttentionTimelineView::setProbeIndex(int index) {
  if (index < 0) return;
  probe_index_ = index;
  {
    const QSignalBlocker block(probe_box_);
    if (index < probe_box_->count()) probe_box_->setCurrentIndex(index);
  }
  refreshCurrentTextToolTip(probe_box_);
  reshow();
}

void AttentionTimelineView::setAggregateSettings(const AggregateSettings& settings) {
  aggregate_settings_ = settings;
  {
    const QSignalBlocker block_fusion(fusion_box_);
    const QSignalBlocker block_discard(discard_box_);
    fusion_box_->setCurrentIndex(fusion_box_->findData(static_cast<int>(settings.fusion)));
    discard_box_->setValue(settings.discard_ratio);
  }
  reshow();
}

void AttentionTimelineView::aggregateAsked() {
  // The asked input shows at once; its aggregates (a rollout is a matrix product per layer)
  // follow from a worker. A newer request replaces the result of an older one.
  ++asked_generation_;
  asked_watcher_.setFuture(QtConcurrent::run(
      [data = asked_, settings = aggregate_settings_, generation = asked_generation_]() mutable {
        addAttentionAggregates(data, settings);
        return std::make_pair(generation, std::move(data));
      }));
}

void AttentionTimelineView::onAskedAggregated() {
  auto [generation, data] = asked_watcher_.result();
  asked_handled_ = generation;
  if (generation != asked_generation_ || !showing_asked_) return;
  asked_ = std::move(data);
  showSnapshot(asked_, false);
}

void AttentionTimelineView::reshow() {
  if (showing_asked_) {
    aggregateAsked();
  } else if (following_ && has_live_) {
    convertLive();
  } else if (!files_.empty()) {
    load(QString::fromStdString(files_[static_cast<std::size_t>(slider_->value())].path));
  }
}

void AttentionTimelineView::acceptLive(AttentionPlotData data) {
  live_ = std::move(data);
  has_live_ = true;
  live_button_->setEnabled(true);  // an opened run that another process still trains has one too
  if (!following_ || showing_asked_) return;
  showLive();
}

void AttentionTimelineView::showLive() {
  following_ = true;
  live_button_->setChecked(true);
  showSnapshot(live_);
  shown_step_ = live_.step;
  updateLabel();
  std::optional<SamplePrediction> sample;
  if (live_probes_) {
    listProbeSamples(probeCaptions(*live_probes_));
    if (const SamplePrediction* chosen = chosenSample(*live_probes_, probe_index_))
      sample = *chosen;
  }
  Q_EMIT liveShown(shown_step_, sample);
}

void AttentionTimelineView::showRun(std::vector<AttentionFileEntry> files,
                                    const std::optional<ProbeSet>& newest) {
  has_live_ = false;
  following_ = true;
  setFiles(std::move(files));
  if (newest && !newest->samples.empty()) {
    listProbeSamples(probeCaptions(*newest));
    const AttentionPlotData data = convertSample(*newest, probe_index_, aggregate_settings_);
    showSnapshot(data);
    shown_step_ = data.step;
  } else {
    showSnapshot(AttentionPlotData{});
    shown_step_ = -1;
  }
  live_button_->setEnabled(false);
  updateLabel();
}

void AttentionTimelineView::clear() {
  setPlaying(false);
  watcher_.waitForFinished();
  list_watcher_.waitForFinished();
  live_watcher_.waitForFinished();
  asked_watcher_.waitForFinished();
  asked_handled_ = asked_generation_;  // its handler will still run and find nothing to do
  converting_live_ = false;
  live_pending_ = false;
  live_probes_.reset();
  asked_ = AttentionPlotData{};
  {
    const QSignalBlocker block(probe_box_);
    probe_box_->clear();
  }
  refreshCurrentTextToolTip(probe_box_);
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
    play_button_->setText(play_button_->isChecked() ? tr("Pause") : tr("Play"));
    play_button_->setIcon(style()->standardIcon(play_button_->isChecked() ? QStyle::SP_MediaPause
                                                                          : QStyle::SP_MediaPlay));
  }
  if (!on || snapshotCount() < 2) {
    play_timer_.stop();
    return;
  }
  if (slider_->value() == slider_->maximum()) slider_->setValue(0);
  play_timer_.start();
}

void AttentionTimelineView::setPlaySpeed(double factor) {
  play_speed_ = std::clamp(factor, 0.25, 8.0);
  play_timer_.setInterval(static_cast<int>(kPlayIntervalMs / play_speed_));
  const QSignalBlocker block(speed_box_);
  const int index = speed_box_->findData(play_speed_);
  if (index >= 0) speed_box_->setCurrentIndex(index);
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
  asked_ = std::move(data);
  showSnapshot(asked_, false);
  aggregateAsked();
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
  watcher_.setFuture(
      QtConcurrent::run([path, index = probe_index_, settings = aggregate_settings_] {
        LoadResult result;
        result.path = path;
        Expected<ProbeSet> probes = readProbeSet(path.toStdString());
        if (probes.ok()) {
          result.data = convertSample(*probes, index, settings);
          if (const SamplePrediction* sample = chosenSample(*probes, index))
            result.sample = *sample;
          // A stored set keeps the step's positional encoding in its first sample.
          result.positional_encoding = std::move(probes->samples.front().positional_encoding);
          result.probe_captions = probeCaptions(*probes);
        } else {
          result.error = QString::fromStdString(probes.error());
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
    listProbeSamples(result.probe_captions);
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
  while (loading_ || listing_ || !pending_path_.isEmpty() || converting_live_ ||
         asked_handled_ != asked_generation_) {
    watcher_.waitForFinished();
    list_watcher_.waitForFinished();
    live_watcher_.waitForFinished();
    asked_watcher_.waitForFinished();
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
