#include "app/gui/views/attention/timeline/attention_timeline.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdlib>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/views/sample/probe_sample_caption.h"
#include "engine/runfolder/run_folder.h"

namespace ascope {

namespace {

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
ProbeChoices captionsOf(const ProbeSet& probes) {
  ProbeChoices choices;
  for (const AttentionSnapshot& sample : probes.samples) {
    choices.captions.push_back(probeSampleCaption(sample));
    choices.samples.push_back(static_cast<int>(sample.sample_index));
  }
  return choices;
}

/// The sample `index` of a non-empty set: the last one when the set has fewer (a run probed with
/// a smaller set than the chooser's choice).
const AttentionSnapshot& chosenSnapshot(const ProbeSet& probes, int index) {
  return probes
      .samples[std::min(static_cast<std::size_t>(std::max(0, index)), probes.samples.size() - 1)];
}

/// The chosen sample, converted with aggregates: the one copy of its weights on the GUI side,
/// shared from here on by every view that draws it.
SharedPlotData convertSample(const ProbeSet& probes, int index, const AggregateSettings& settings) {
  AttentionPlotData data = toAttentionPlotData(chosenSnapshot(probes, index));
  addAttentionAggregates(data, settings);
  return std::make_shared<const AttentionPlotData>(std::move(data));
}

/// Nothing to draw.
SharedPlotData nothing() {
  return std::make_shared<const AttentionPlotData>();
}

std::optional<SamplePrediction> chosenSample(const ProbeSet& probes, int index) {
  if (probes.samples.empty()) return std::nullopt;
  return chosenSnapshot(probes, index).sample;
}

}  // namespace

AttentionTimeline::AttentionTimeline(const CurrentRun* run, QObject* parent)
    : QObject(parent), run_(run) {
  connect(&watcher_, &QFutureWatcher<LoadResult>::finished, this, &AttentionTimeline::onLoaded);
  connect(&list_watcher_, &QFutureWatcher<std::vector<AttentionFileEntry>>::finished, this,
          &AttentionTimeline::onListed);
  connect(&live_watcher_, &QFutureWatcher<SharedPlotData>::finished, this,
          &AttentionTimeline::onLiveConverted);
  connect(&asked_watcher_, &QFutureWatcher<std::pair<int, SharedPlotData>>::finished, this,
          &AttentionTimeline::onAskedAggregated);
  connect(run_, &CurrentRun::folderChanged, this, &AttentionTimeline::refreshFiles);
}

AttentionTimeline::~AttentionTimeline() {
  watcher_.waitForFinished();
  list_watcher_.waitForFinished();
  live_watcher_.waitForFinished();
  asked_watcher_.waitForFinished();
}

void AttentionTimeline::setLiveProbes(std::shared_ptr<const ProbeSet> probes) {
  if (!probes || probes->samples.empty()) return;
  refreshFiles();
  live_probes_ = std::move(probes);
  if (following_ && !showing_asked_) setCaptions(captionsOf(*live_probes_));
  convertLive();
}

void AttentionTimeline::convertLive() {
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
      [probes = live_probes_, index = probe_index_, settings = aggregate_settings_] {
        return convertSample(*probes, index, settings);
      }));
}

void AttentionTimeline::onLiveConverted() {
  if (!converting_live_) return;  // cleared meanwhile
  converting_live_ = false;
  acceptLive(live_watcher_.result());
  if (live_pending_) {
    live_pending_ = false;
    convertLive();
  }
}

void AttentionTimeline::acceptLive(SharedPlotData data) {
  live_ = std::move(data);
  has_live_ = true;
  live_possible_ = true;  // an opened run that another process still trains has one too
  if (!following_ || showing_asked_) {
    Q_EMIT changed();
    return;
  }
  showLive();
}

void AttentionTimeline::showLive() {
  following_ = true;
  shown_step_ = live_->step;
  Q_EMIT shown(live_, true);
  std::optional<SamplePrediction> sample;
  if (live_probes_) {
    setCaptions(captionsOf(*live_probes_));
    sample = chosenSample(*live_probes_, probe_index_);
  }
  Q_EMIT changed();
  Q_EMIT liveShown(shown_step_, sample);
}

void AttentionTimeline::setCaptions(ProbeChoices choices) {
  if (choices == probes_) return;
  probes_ = std::move(choices);
  Q_EMIT probeCaptionsChanged(probes_.captions);
}

void AttentionTimeline::setProbeIndex(int index) {
  if (index < 0) return;
  probe_index_ = index;
  reshow();
}

void AttentionTimeline::setAggregateSettings(const AggregateSettings& settings) {
  aggregate_settings_ = settings;
  reshow();
}

void AttentionTimeline::reshow() {
  if (showing_asked_) {
    aggregateAsked();
  } else if (following_ && has_live_) {
    convertLive();
  } else if (!files_.empty()) {
    load(QString::fromStdString(files_[static_cast<std::size_t>(index_)].path));
  }
}

void AttentionTimeline::aggregateAsked() {
  // The asked input shows at once; its aggregates (a rollout is a matrix product per layer)
  // follow from a worker. A newer request replaces the result of an older one.
  ++asked_generation_;
  asked_watcher_.setFuture(QtConcurrent::run(
      [asked = asked_, settings = aggregate_settings_, generation = asked_generation_] {
        AttentionPlotData data = *asked;  // an asked input, not a probe set: aggregated anew
        addAttentionAggregates(data, settings);
        return std::make_pair(
            generation, SharedPlotData(std::make_shared<const AttentionPlotData>(std::move(data))));
      }));
}

void AttentionTimeline::onAskedAggregated() {
  auto [generation, data] = asked_watcher_.result();
  asked_handled_ = generation;
  if (generation != asked_generation_ || !showing_asked_) return;
  asked_ = std::move(data);
  Q_EMIT shown(asked_, false);
}

void AttentionTimeline::showRun(std::vector<AttentionFileEntry> files,
                                std::shared_ptr<const ProbeSet> newest,
                                const QStringList& left_out) {
  left_out_ += left_out;
  has_live_ = false;
  following_ = true;
  live_possible_ = false;
  setFiles(std::move(files));
  if (newest && !newest->samples.empty()) {
    setCaptions(captionsOf(*newest));
    SharedPlotData data = convertSample(*newest, probe_index_, aggregate_settings_);
    shown_step_ = data->step;
    Q_EMIT shown(std::move(data), true);
  } else {
    shown_step_ = -1;
    Q_EMIT shown(nothing(), true);
  }
  Q_EMIT changed();
}

void AttentionTimeline::clear() {
  watcher_.waitForFinished();
  list_watcher_.waitForFinished();
  live_watcher_.waitForFinished();
  asked_watcher_.waitForFinished();
  asked_handled_ = asked_generation_;  // its handler will still run and find nothing to do
  converting_live_ = false;
  live_pending_ = false;
  live_probes_.reset();
  asked_.reset();
  live_.reset();
  setCaptions({});
  files_.clear();
  index_ = 0;
  has_live_ = false;
  live_possible_ = true;
  following_ = true;
  showing_asked_ = false;
  shown_step_ = -1;
  load_error_.clear();
  left_out_.clear();
  pending_path_.clear();
  list_again_ = false;
  listing_ = loading_ = false;  // their handlers will still run and find nothing to do
  Q_EMIT changed();
}

void AttentionTimeline::refreshFiles() {
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

void AttentionTimeline::onListed() {
  if (!listing_) return;  // cleared meanwhile: the listing was of the previous run
  listing_ = false;
  setFiles(list_watcher_.result());
  Q_EMIT changed();
  if (list_again_) refreshFiles();
}

void AttentionTimeline::setFiles(std::vector<AttentionFileEntry> files) {
  const bool at_end = index_ + 1 >= snapshotCount();
  files.erase(std::remove_if(files.begin(), files.end(),
                             [this](const AttentionFileEntry& file) {
                               return left_out_.contains(QString::fromStdString(file.path));
                             }),
              files.end());
  files_ = std::move(files);
  const int last = std::max(0, snapshotCount() - 1);
  index_ = following_ || at_end ? last : std::min(index_, last);
}

void AttentionTimeline::leaveAsked() {
  if (!showing_asked_) return;
  showing_asked_ = false;
  Q_EMIT askedShown(false);
}

void AttentionTimeline::showIndex(int index) {
  if (index < 0 || index >= snapshotCount()) return;
  index_ = index;
  leaveAsked();
  if (index == snapshotCount() - 1 && has_live_) {
    showLive();
    return;
  }
  following_ = false;
  Q_EMIT changed();
  load(QString::fromStdString(files_[static_cast<std::size_t>(index)].path));
}

void AttentionTimeline::showStep(long long step) {
  if (files_.empty()) return;
  std::size_t nearest = 0;
  for (std::size_t i = 1; i < files_.size(); ++i) {
    if (std::llabs(files_[i].step - step) < std::llabs(files_[nearest].step - step)) nearest = i;
  }
  showIndex(static_cast<int>(nearest));
}

void AttentionTimeline::followLive() {
  following_ = true;
  refreshFiles();
  if (showing_asked_) {
    returnToRun();
  } else if (has_live_) {
    showLive();
  }
  Q_EMIT changed();
}

void AttentionTimeline::showAsked(SharedPlotData data) {
  showing_asked_ = true;
  asked_ = std::move(data);
  Q_EMIT shown(asked_, false);
  aggregateAsked();
  Q_EMIT changed();
  Q_EMIT askedShown(true);
}

void AttentionTimeline::returnToRun() {
  if (!showing_asked_) return;
  leaveAsked();
  if (following_ && has_live_) {
    showLive();
  } else if (!files_.empty()) {
    load(QString::fromStdString(files_[static_cast<std::size_t>(index_)].path));
  } else {
    shown_step_ = -1;
    Q_EMIT shown(nothing(), true);
  }
  Q_EMIT changed();
}

void AttentionTimeline::load(QString path) {  // by value: callers pass pending_path_
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
          result.sample = chosenSample(*probes, index);
          // A stored set keeps the step's positional encoding in its first sample.
          result.positional_encoding = std::move(probes->samples.front().positional_encoding);
          result.probe_choices = captionsOf(*probes);
        } else {
          result.error = QString::fromStdString(probes.error());
        }
        return result;
      }));
}

void AttentionTimeline::onLoaded() {
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
    setCaptions(result.probe_choices);
    shown_step_ = result.data->step;
    load_error_.clear();
    Q_EMIT shown(result.data, true);
    Q_EMIT stepShown(shown_step_, result.sample, result.positional_encoding);
  } else {
    load_error_ = result.error;
    // A damaged snapshot is left out with a note (it showed as "step -1", or hid the run), and
    // the one now at its place in the timeline is shown instead.
    const auto damaged = std::find_if(files_.begin(), files_.end(), [&](const auto& file) {
      return QString::fromStdString(file.path) == result.path;
    });
    if (damaged != files_.end()) {
      left_out_ << result.path;
      files_.erase(damaged);
      index_ = std::min(index_, std::max(0, snapshotCount() - 1));
      Q_EMIT snapshotLeftOut(result.error);
      if (!files_.empty()) {
        Q_EMIT changed();
        load(QString::fromStdString(files_[static_cast<std::size_t>(index_)].path));
        return;
      }
      shown_step_ = -1;
      Q_EMIT shown(nothing(), true);
    }
  }
  Q_EMIT changed();
}

void AttentionTimeline::waitForLoad() {
  while (isBusy()) {
    watcher_.waitForFinished();
    list_watcher_.waitForFinished();
    live_watcher_.waitForFinished();
    asked_watcher_.waitForFinished();
    QCoreApplication::processEvents();
  }
}

}  // namespace ascope
