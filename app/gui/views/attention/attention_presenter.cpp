#include "app/gui/views/attention/attention_presenter.h"

#include <QJsonArray>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStackedWidget>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/minimal_pair_view.h"
#include "widgets/attention/prediction_round.h"
#include "widgets/common/combo_tool_tip.h"

#include <algorithm>

namespace ascope {

namespace {

/// Between two frames of Play: long enough to read a head, short enough to see it learn.
constexpr int kPlayIntervalMs = 450;

}  // namespace

AttentionPresenter::AttentionPresenter(const CurrentRun* run, QWidget* parent)
    : QWidget(parent), timeline_(new AttentionTimeline(run, this)) {
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
  // The style's icons, not ▶/⏸: DejaVu has no ⏸, which showed as an empty box.
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
  pair_view_ = new MinimalPairView(this);
  // Its four panes take the room the head grid has; they must not make the dock (hidden behind
  // the grid, most of the time) ask for more on a small screen.
  pair_view_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
  stack_ = new QStackedWidget(this);
  stack_->addWidget(panel_);
  stack_->addWidget(pair_view_);
  layout->addWidget(stack_, 1);

  play_timer_.setInterval(kPlayIntervalMs);
  connect(&play_timer_, &QTimer::timeout, this, &AttentionPresenter::onPlayTick);
  connect(play_button_, &QToolButton::toggled, this, &AttentionPresenter::setPlaying);
  connect(speed_box_, qOverload<int>(&QComboBox::activated), this,
          [this](int index) { setPlaySpeed(speed_box_->itemData(index).toDouble()); });
  connect(slider_, &QSlider::valueChanged, this, &AttentionPresenter::onSliderMoved);
  connect(live_button_, &QToolButton::clicked, this, [this](bool on) {
    if (!on) {
      live_button_->setChecked(true);  // "live" is left by moving the slider, not the button
      return;
    }
    setPlaying(false);
    timeline_->followLive();
  });
  connect(back_button_, &QPushButton::clicked, this, &AttentionPresenter::returnToRun);
  connect(probe_box_, qOverload<int>(&QComboBox::activated), this,
          &AttentionPresenter::setProbeIndex);
  const auto settings_changed = [this] {
    AggregateSettings settings;
    settings.fusion = static_cast<HeadFusion>(fusion_box_->currentData().toInt());
    settings.discard_ratio = discard_box_->value();
    setAggregateSettings(settings);
  };
  connect(fusion_box_, qOverload<int>(&QComboBox::activated), this, settings_changed);
  connect(discard_box_, &QDoubleSpinBox::editingFinished, this, settings_changed);

  connect(timeline_, &AttentionTimeline::shown, this, &AttentionPresenter::onShown);
  connect(timeline_, &AttentionTimeline::changed, this, &AttentionPresenter::sync);
  connect(timeline_, &AttentionTimeline::probeCaptionsChanged, this,
          &AttentionPresenter::listProbeSamples);
  connect(timeline_, &AttentionTimeline::stepShown, this, &AttentionPresenter::stepShown);
  connect(timeline_, &AttentionTimeline::liveShown, this, &AttentionPresenter::liveShown);
  connect(timeline_, &AttentionTimeline::askedShown, this, &AttentionPresenter::askedShown);
  connect(timeline_, &AttentionTimeline::askedShown, this, [this](bool shown) {
    if (!shown) stack_->setCurrentWidget(panel_);
  });
  connect(timeline_, &AttentionTimeline::snapshotLeftOut, this,
          &AttentionPresenter::snapshotLeftOut);
  sync();
}

AttentionPresenter::~AttentionPresenter() = default;

void AttentionPresenter::setLiveSnapshot(std::shared_ptr<const ProbeSet> probes) {
  timeline_->setLiveProbes(std::move(probes));
}

void AttentionPresenter::refreshFiles() {
  timeline_->refreshFiles();
}

void AttentionPresenter::showRun(std::vector<AttentionFileEntry> files,
                                 std::shared_ptr<const ProbeSet> newest,
                                 const QStringList& left_out) {
  timeline_->showRun(std::move(files), std::move(newest), left_out);
}

void AttentionPresenter::clear() {
  setPlaying(false);
  timeline_->clear();
  group_chosen_ = false;
  panel_->clear();
}

void AttentionPresenter::listProbeSamples(const QStringList& captions) {
  QStringList shown;
  for (int i = 0; i < probe_box_->count(); ++i) shown.push_back(probe_box_->itemText(i));
  if (shown != captions) {
    const QSignalBlocker block(probe_box_);
    probe_box_->clear();
    probe_box_->addItems(captions);
    probe_box_->setCurrentIndex(std::min(probeIndex(), static_cast<int>(captions.size()) - 1));
  }
  refreshCurrentTextToolTip(probe_box_);
}

void AttentionPresenter::setProbeIndex(int index) {
  if (index < 0) return;
  {
    const QSignalBlocker block(probe_box_);
    if (index < probe_box_->count()) probe_box_->setCurrentIndex(index);
  }
  refreshCurrentTextToolTip(probe_box_);
  timeline_->setProbeIndex(index);
}

void AttentionPresenter::setAggregateSettings(const AggregateSettings& settings) {
  {
    const QSignalBlocker block_fusion(fusion_box_);
    const QSignalBlocker block_discard(discard_box_);
    fusion_box_->setCurrentIndex(fusion_box_->findData(static_cast<int>(settings.fusion)));
    discard_box_->setValue(settings.discard_ratio);
  }
  timeline_->setAggregateSettings(settings);
}

void AttentionPresenter::onSliderMoved(int index) {
  timeline_->showIndex(index);
}

void AttentionPresenter::showStep(long long step) {
  timeline_->showStep(step);
}

void AttentionPresenter::stepBy(int delta) {
  if (snapshotCount() == 0) return;
  const int index = std::clamp(timeline_->index() + delta, 0, snapshotCount() - 1);
  if (index != timeline_->index()) timeline_->showIndex(index);
}

void AttentionPresenter::showFirst() {
  timeline_->showIndex(0);
}

void AttentionPresenter::showLast() {
  timeline_->showIndex(snapshotCount() - 1);
}

void AttentionPresenter::setPlaying(bool on) {
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
  if (timeline_->index() >= snapshotCount() - 1) timeline_->showIndex(0);
  play_timer_.start();
}

void AttentionPresenter::setPlaySpeed(double factor) {
  play_speed_ = std::clamp(factor, 0.25, 8.0);
  play_timer_.setInterval(static_cast<int>(kPlayIntervalMs / play_speed_));
  const QSignalBlocker block(speed_box_);
  const int index = speed_box_->findData(play_speed_);
  if (index >= 0) speed_box_->setCurrentIndex(index);
}

void AttentionPresenter::onPlayTick() {
  if (timeline_->isLoading()) return;  // let each frame be seen
  if (timeline_->index() >= snapshotCount() - 1) {
    setPlaying(false);
    return;
  }
  timeline_->showIndex(timeline_->index() + 1);
}

void AttentionPresenter::showPair(const MinimalPairPlotData& pair) {
  pair_view_->setPair(pair);
  stack_->setCurrentWidget(pair_view_);
}

bool AttentionPresenter::isShowingPair() const {
  return stack_->currentWidget() == pair_view_;
}

QList<Exportable*> AttentionPresenter::exportables() const {
  if (isShowingPair()) return {pair_view_};
  return {};
}

void AttentionPresenter::showAsked(AttentionPlotData data, const QString& caption,
                                   const QString& name) {
  setPlaying(false);
  stack_->setCurrentWidget(panel_);
  asked_label_->setText(caption);
  asked_name_ = name.isEmpty() ? tr("your input") : name;
  timeline_->showAsked(std::make_shared<const AttentionPlotData>(std::move(data)));
}

void AttentionPresenter::returnToRun() {
  timeline_->returnToRun();
}

void AttentionPresenter::waitForLoad() {
  timeline_->waitForLoad();
}

void AttentionPresenter::onShown(SharedPlotData shown, bool part_of_run) {
  const AttentionPlotData& data = *shown;
  if (data.groups.empty() && data.step < 0 && part_of_run) {
    panel_->clear();
  } else {
    panel_->setSnapshot(shown, part_of_run);
  }
  Q_EMIT attentionShown(shown);
  if (!group_chosen_ && !data.groups.empty()) {
    // Translation opens on cross attention: target tokens looking at source tokens is what the
    // lecture is about. Later snapshots keep whatever group the user picks.
    group_chosen_ = true;
    for (std::size_t g = 0; g < data.groups.size(); ++g) {
      if (data.groups[g].name == QLatin1String("cross")) {
        panel_->setCurrentGroup(static_cast<int>(g));
      }
    }
  }
  if (balanced_ || data.groups.empty()) return;
  // The panel's grid | enlarged-head split takes its first proportions while the panel still
  // shows its empty hint, which leaves the head grid too narrow for its title; divide it once.
  panel_->divideWidth();
  balanced_ = true;
}

void AttentionPresenter::sync() {
  const int count = snapshotCount();
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, count - 1));
    slider_->setValue(timeline_->index());
  }
  slider_->setEnabled(count > 1);
  play_button_->setEnabled(count > 1);
  live_button_->setEnabled(timeline_->canFollowLive());
  live_button_->setChecked(timeline_->isFollowingLive());
  asked_bar_->setVisible(timeline_->isShowingAsked());
  label_->setToolTip(timeline_->loadError());
  if (timeline_->isShowingAsked()) {
    label_->setText(asked_name_);
    return;
  }
  if (shownStep() < 0) {
    label_->setText(tr("no snapshot yet"));
    return;
  }
  const QString where =
      count > 0 ? QStringLiteral(" · %1/%2").arg(timeline_->index() + 1).arg(count) : QString();
  label_->setText(tr("step %1").arg(shownStep()) + where);
}

QString AttentionPresenter::stepText() const {
  return label_->text();
}

QJsonObject AttentionPresenter::report() const {
  const AttentionHeadGridPanel* attention = panel();
  // The labels of the group on screen tell whose attention it is (the probe's or an asked input's).
  QJsonArray key_labels;
  if (attention->groupCount() > 0 && attention->layerCount() > 0) {
    const AttentionPlotGroup& group =
        attention->snapshot().groups[static_cast<std::size_t>(attention->currentGroup())];
    if (!group.layers.empty() && !group.layers[0].empty()) {
      for (const QString& label : group.layers[0][0].col_labels) key_labels.append(label);
    }
  }
  int model_groups = 0;
  for (const AttentionPlotGroup& group : attention->snapshot().groups) {
    if (group.aggregate_of.isEmpty()) ++model_groups;
  }
  return QJsonObject{
      {QStringLiteral("attention_groups"), model_groups},
      // Mean of heads for every group, rollout for every self-attention group.
      {QStringLiteral("attention_aggregate_groups"), attention->groupCount() - model_groups},
      {QStringLiteral("attention_probe_samples"), probeSelector()->count()},
      {QStringLiteral("attention_layers"), attention->layerCount()},
      {QStringLiteral("attention_heads"), attention->headCount()},
      {QStringLiteral("attention_step"), static_cast<double>(attention->snapshot().step)},
      {QStringLiteral("attention_timeline"), snapshotCount()},
      {QStringLiteral("attention_asked"), isShowingAsked()},
      {QStringLiteral("attention_key_labels"), key_labels},
      {QStringLiteral("attention_pair"), isShowingPair()},
      {QStringLiteral("attention_round"),
       !attention->predictionRound()->isActive()
           ? QStringLiteral("none")
           : (attention->predictionRound()->isRevealed() ? QStringLiteral("revealed")
                                                         : QStringLiteral("hidden"))},
      {QStringLiteral("attention_pair_most_changed"),
       isShowingPair() && !pair_view_->pair().ranking.isEmpty()
           ? pair_view_->pair().ranking.front().change
           : 0.0},
  };
}

void AttentionPresenter::clearRun() {
  clear();
}

void AttentionPresenter::takeNews(const RunNews& news) {
  if (news.opened) {
    for (auto it = news.opened->group_max.cbegin(); it != news.opened->group_max.cend(); ++it) {
      panel_->setRunMaxima(it.key(), it.value());
    }
    showRun(news.opened->attention_files, news.opened->newest_probes, news.opened->left_out);
  } else if (news.newest_probes) {
    setLiveSnapshot(news.newest_probes);
  } else if (news.attention_files_changed) {
    refreshFiles();
  }
}

}  // namespace ascope
