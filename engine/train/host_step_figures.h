#pragma once
// One training step's figures once read off the device (BatchOutcome holds them there).
#include <cstdint>

namespace ascope {

struct HostStepFigures {
  double loss = 0;
  double correct = 0;  ///< items predicted right
  double counted = 0;  ///< items that count towards accuracy
  int64_t samples = 0;
};

}  // namespace ascope
