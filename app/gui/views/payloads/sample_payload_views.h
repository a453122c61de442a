#pragma once
// How the Sample dock shows a sample that carries a payload (engine/vocabulary/payloads): one
// view per kind, found by the kind's name, beside that kind's codec in the run folder
// (engine/runfolder/payloads). A sample with none of these kinds shows as text.
#include <functional>
#include <string>
#include <vector>

#include "engine/vocabulary/events.h"
#include "engine/vocabulary/task_descriptor.h"

namespace ascope {

class SamplePanel;

struct SamplePayloadView {
  std::string kind;  ///< Payload::kind() it draws
  /// Shows `sample`, which carries a payload of `kind`, in `panel`; `task` may be null (a run of
  /// a task this build does not know).
  std::function<void(SamplePanel& panel, const SamplePrediction& sample,
                     const TaskDescriptor* task)>
      show;
};

/// Every kind's view, in the order a sample's payloads are tried.
const std::vector<SamplePayloadView>& samplePayloadViews();

/// The views of the built-in kinds (one file each).
SamplePayloadView imageSampleView();
SamplePayloadView alignmentSampleView();

}  // namespace ascope
