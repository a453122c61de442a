#include "engine/inference/device_query.h"

#include <torch/cuda.h>

namespace ascope {

bool cudaAvailable() {
  return torch::cuda::is_available();
}

}  // namespace ascope
