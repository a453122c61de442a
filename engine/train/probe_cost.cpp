#include "engine/train/probe_cost.h"

#include <fmt/format.h>

namespace ascope {

std::string ProbeCost::text() const {
  return fmt::format(
      "attention {:.2f} s, generated predictions {:.2f} s ({} probes), encoding {:.2f} s, "
      "statistics {:.2f} s, recording {:.2f} s; {:.1f} ms a probe",
      attention_s, predictions_s, generated, encoding_s, statistics_s, recording_s,
      probes > 0 ? 1000.0 * total() / static_cast<double>(probes) : 0.0);
}

}  // namespace ascope
