#include "app/gui/window/jobs/run_comparison_job.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/views/sample/probe_sample_caption.h"
#include "engine/inference/read_run.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "widgets/attention/attention_difference.h"

namespace ascope {
namespace {

/// The same probe sample: same index in the validation split and, where stored, the same text.
bool sameSample(const AttentionSnapshot& a, const AttentionSnapshot& b) {
  if (a.sample_index != b.sample_index) return false;
  if (a.sample && b.sample) return a.sample->input == b.sample->input;
  return true;
}

std::optional<ComparedRun> readCompared(const QString& dir, QString* error, QStringList* warnings,
                                        std::vector<AttentionFileEntry>* files) {
  Expected<OpenedRun> run = readRun(dir.toStdString());
  if (!run.ok()) {
    *error = QString::fromStdString(run.error());
    return std::nullopt;
  }
  ComparedRun compared;
  compared.path = QString::fromStdString(run->path);
  compared.name = QFileInfo(compared.path).fileName();
  compared.steps = std::move(run->steps);
  compared.epochs = std::move(run->epochs);
  compared.task = run->config.task;
  *files = std::move(run->attention_files);
  for (const std::string& w : run->warnings) warnings->push_back(QString::fromStdString(w));
  return compared;
}

}  // namespace

RunComparisonData loadRunComparison(const QString& dir_a, const QString& dir_b) {
  RunComparisonData data;
  std::vector<AttentionFileEntry> files_a;
  std::vector<AttentionFileEntry> files_b;
  std::optional<ComparedRun> a = readCompared(dir_a, &data.error, &data.warnings, &files_a);
  if (!a) return data;
  std::optional<ComparedRun> b = readCompared(dir_b, &data.error, &data.warnings, &files_b);
  if (!b) return data;
  data.a = std::move(*a);
  data.b = std::move(*b);
  if (data.a.name == data.b.name) {
    // Two folders of the same name in different places: the legend needs to tell them apart.
    data.a.name = QDir::toNativeSeparators(data.a.path);
    data.b.name = QDir::toNativeSeparators(data.b.path);
  }
  Expected<std::vector<SettingDifference>> settings =
      differingRunSettings(dir_a.toStdString(), dir_b.toStdString());
  if (settings.ok()) {
    data.settings = std::move(*settings);
  } else {
    data.warnings.push_back(QString::fromStdString(settings.error()));
  }
  for (const AttentionFileEntry& fa : files_a) {
    const auto fb = std::find_if(files_b.begin(), files_b.end(),
                                 [&fa](const AttentionFileEntry& f) { return f.step == fa.step; });
    if (fb != files_b.end()) data.paired.emplace_back(fa, *fb);
  }
  for (const auto& [fa, fb] : data.paired) {
    Expected<ProbeSet> pa = readProbeSet(fa.path);
    Expected<ProbeSet> pb = readProbeSet(fb.path);
    if (!pa.ok() || !pb.ok()) continue;  // the step says so when it is shown
    const std::size_t n = std::min(pa->samples.size(), pb->samples.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!sameSample(pa->samples[i], pb->samples[i])) continue;
      const AttentionPlotData da = toAttentionPlotData(pa->samples[i]);
      const AttentionPlotData db = toAttentionPlotData(pb->samples[i]);
      for (const AttentionPlotGroup& ga : da.groups) {
        for (const AttentionPlotGroup& gb : db.groups) {
          if (gb.name != ga.name) continue;
          double& top = data.scale[ga.name];
          top = std::max(top, largestDifference(ga, gb));
        }
      }
    }
  }
  return data;
}

ComparedStep loadComparedStep(const QString& path_a, const QString& path_b, int probe_index) {
  ComparedStep result;
  Expected<ProbeSet> pa = readProbeSet(path_a.toStdString());
  Expected<ProbeSet> pb = readProbeSet(path_b.toStdString());
  if (!pa.ok() || !pb.ok()) {
    result.problem = QString::fromStdString(!pa.ok() ? pa.error() : pb.error());
    return result;
  }
  result.step = pa->step;
  result.sample_count = static_cast<int>(std::min(pa->samples.size(), pb->samples.size()));
  if (result.sample_count == 0) {
    result.problem = QObject::tr("a snapshot of this step holds no probe sample");
    return result;
  }
  for (int s = 0; s < result.sample_count; ++s) {
    result.captions.push_back(probeSampleCaption(pa->samples[static_cast<std::size_t>(s)]));
  }
  const std::size_t i =
      static_cast<std::size_t>(std::clamp(probe_index, 0, result.sample_count - 1));
  const AttentionSnapshot& sa = pa->samples[i];
  const AttentionSnapshot& sb = pb->samples[i];
  result.caption_a = probeSampleCaption(sa);
  result.caption_b = probeSampleCaption(sb);
  result.a = toAttentionPlotData(sa);
  result.b = toAttentionPlotData(sb);
  if (!sameSample(sa, sb)) {
    result.problem = QObject::tr(
                         "the runs probed different samples (A: %1, B: %2): their "
                         "attention is shown, but no difference")
                         .arg(result.caption_a, result.caption_b);
  }
  return result;
}

}  // namespace ascope
