#include "app/cli/output/payloads/payload_json_writers.h"

namespace ascope::cli {

const std::vector<PayloadJsonWriter>& payloadJsonWriters() {
  static const std::vector<PayloadJsonWriter> writers = {decodingPayloadJson(), imagePayloadJson()};
  return writers;
}

}  // namespace ascope::cli
