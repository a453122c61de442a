#include "app/gui/views/sample/probe_sample_caption.h"

#include "engine/vocabulary/events.h"

namespace ascope {

QString probeSampleCaption(const AttentionSnapshot& snapshot) {
  const auto& sample = snapshot.sample;
  QString what = sample ? QString::fromStdString(sample->input).simplified() : QString();
  if (what.isEmpty() && sample) what = QString::fromStdString(sample->expected);  // an image
  if (what.size() > 40) what = what.left(39) + QStringLiteral("…");
  return QStringLiteral("#%1 %2").arg(snapshot.sample_index).arg(what).trimmed();
}

}  // namespace ascope
