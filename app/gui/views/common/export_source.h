#pragma once
// What the window's exports ask of a dock's owner: the parts of its dock that save themselves as
// a figure and their data as CSV. Export all panels, the slide bundle and scripted mode go through
// it instead of reaching into widgets.
#include <QList>

#include "widgets/common/exportable.h"

namespace ascope {

class ExportSource {
 public:
  virtual ~ExportSource() = default;
  virtual QList<Exportable*> exportables() const = 0;
};

}  // namespace ascope
