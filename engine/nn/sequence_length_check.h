#pragma once
#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

namespace ascope {

/// Throws a readable error when x (B, T, …) is longer than a position table allows.
inline void checkSequenceLength(const at::Tensor& x, int64_t available, const char* what) {
  if (x.size(1) > available) {
    throw std::invalid_argument("sequence length " + std::to_string(x.size(1)) + " exceeds the " +
                                what + " " + std::to_string(available));
  }
}

}  // namespace ascope
