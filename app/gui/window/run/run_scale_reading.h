#pragma once
// An opened run's colour scale: every stored snapshot read for each head's largest informative
// weight (the Attention dock's "run" scale, the same at every step shown). Reading is the most of
// an opening's own cost, so the files are read in parallel, one thread per core, the calling
// thread among them; what they give is merged in step order. Never on the GUI thread.
#include <QHash>
#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "engine/runfolder/run_reader.h"
#include "widgets/attention/attention_run_maxima.h"

namespace ascope {

struct RunScaleReading {
  /// Per attention group (under the title the timeline gives it), each head's top.
  QHash<QString, AttentionRunMaxima> group_max;
  /// The snapshots that did not decode, by path: left out of the timeline.
  QStringList left_out;
  /// For each of those, why ("attention snapshot left out: …").
  std::vector<std::string> warnings;
  /// The files that decoded, in their order.
  std::vector<AttentionFileEntry> readable;
};

/// Reads `files` (every snapshot of one run).
RunScaleReading readRunScale(std::vector<AttentionFileEntry> files);

}  // namespace ascope
