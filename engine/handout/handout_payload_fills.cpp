#include "engine/handout/handout_payload_fills.h"

namespace ascope {

const std::vector<HandoutPayloadFill>& handoutPayloadFills() {
  static const std::vector<HandoutPayloadFill> fills = {imageHandoutFill(), decodingHandoutFill()};
  return fills;
}

}  // namespace ascope
