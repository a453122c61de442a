#pragma once
// The positional-encoding panel's one conversion.
#include "engine/train/events.h"
#include "widgets/positional_encoding_data.h"

namespace ascope {

PositionalEncodingData toPositionalEncodingData(const PositionalEncodingSnapshot& snapshot);

}  // namespace ascope
