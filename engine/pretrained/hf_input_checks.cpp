#include "engine/pretrained/hf_input_checks.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ascope {

void requireTokenIds(const char* what, const at::Tensor& ids, int64_t table_size) {
  if (!ids.defined() || ids.dim() != 2) {
    throw std::invalid_argument(std::string(what) + " must be a (batch, length) tensor");
  }
  if (ids.numel() == 0) return;
  // Read on the host only: on a device, reading the values would stop the queue at every forward.
  // The tasks send ids of their own tokenizer there, checked against vocab_size at load.
  if (!ids.device().is_cpu()) return;
  const at::Tensor values = ids.to(at::kDouble).contiguous();
  const double* first = values.data_ptr<double>();
  const double* last = first + values.numel();
  if (std::any_of(first, last, [](double v) { return v != std::trunc(v); })) {
    throw std::invalid_argument(std::string(what) + " must hold whole numbers");
  }
  const auto [lowest, highest] = std::minmax_element(first, last);
  const double low = *lowest, high = *highest;
  if (low < 0 || high >= static_cast<double>(table_size)) {
    std::ostringstream message;
    message << what << " holds " << (low < 0 ? low : high) << ", outside [0, " << table_size << ")";
    throw std::invalid_argument(message.str());
  }
}

void requireSameShape(const char* what, const at::Tensor& tensor, const char* reference_name,
                      const at::Tensor& reference) {
  if (tensor.sizes() != reference.sizes()) {
    std::ostringstream message;
    message << what << " has shape " << tensor.sizes() << ", " << reference_name << " "
            << reference.sizes();
    throw std::invalid_argument(message.str());
  }
}

}  // namespace ascope
