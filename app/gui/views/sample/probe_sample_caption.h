#pragma once
// How a probe sample is named wherever one is chosen (the timeline's probe chooser, the run
// comparison): its index and its text, or an image's class, cut to fit a combo box.
#include <QString>

namespace ascope {

struct AttentionSnapshot;

/// "#2 a wonderful film with a great…"; "#5 cat" for an image; "#7" when nothing is stored.
QString probeSampleCaption(const AttentionSnapshot& snapshot);

}  // namespace ascope
