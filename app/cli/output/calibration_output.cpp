#include "app/cli/output/calibration_output.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "engine/runfolder/calibration/calibration_file.h"

namespace ascope::cli {

nlohmann::json calibrationJson(const AppliedCalibration& c) {
  return {{"temperature", c.temperature},
          {"source", c.source},
          {"bins", c.after.bins.size()},
          {"ece", c.after.ece},
          {"ece_before", c.before.ece},
          {"reliability", reliabilityBinsJson(c.after)},
          {"reliability_before", reliabilityBinsJson(c.before)}};
}

void printCalibration(const AppliedCalibration& c) {
  std::printf("\n  calibration (%zu equal-width confidence bins): ECE %.4f", c.after.bins.size(),
              c.after.ece);
  if (c.temperature != 1.0) {
    std::printf(" at temperature %.4g (%.4f at 1, the model's own)", c.temperature, c.before.ece);
  }
  std::printf("\n    %s\n", c.source.c_str());
  std::printf("    %-11s %9s %11s %9s\n", "confidence", "samples", "mean conf.", "accuracy");
  for (const ReliabilityBin& b : c.after.bins) {
    if (b.count == 0) {
      std::printf("    %.1f–%.1f %11d %11s %9s\n", b.lower, b.upper, 0, "-", "-");
    } else {
      std::printf("    %.1f–%.1f %11lld %11.4f %9.4f\n", b.lower, b.upper,
                  static_cast<long long>(b.count), b.confidence, b.accuracy);
    }
  }
}

}  // namespace ascope::cli
