#pragma once
// The positional-encoding panel's one conversion.
#include "engine/vocabulary/events.h"
#include "widgets/encoding/positional_encoding_data.h"

namespace ascope {

PositionalEncodingData toPositionalEncodingData(const PositionalEncodingSnapshot& snapshot);

}  // namespace ascope
