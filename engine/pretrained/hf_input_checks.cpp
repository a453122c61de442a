#include "engine/pretrained/hf_input_checks.h"

#include <sstream>
#include <stdexcept>
#include <string>

namespace ascope {

void requireTokenIds(const char* what, const at::Tensor& ids, int64_t table_size) {
  if (!ids.defined() || ids.dim() != 2) {
    throw std::invalid_argument(std::string(what) + " must be a (batch, length) tensor");
  }
  if (ids.numel() == 0) return;
  if (at::isFloatingType(ids.scalar_type()) && !ids.eq(ids.trunc()).all().item<bool>()) {
    throw std::invalid_argument(std::string(what) + " must hold whole numbers");
  }
  const double low = ids.min().item<double>();
  const double high = ids.max().item<double>();
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
