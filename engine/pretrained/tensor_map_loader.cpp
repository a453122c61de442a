#include "engine/pretrained/tensor_map_loader.h"

#include <ATen/core/grad_mode.h>

#include <sstream>
#include <utility>

namespace ascope {
namespace {

// Enough to see a pattern (every layer's key missing) without a page of text.
constexpr size_t kMaxListedProblems = 12;

std::string shapeText(at::IntArrayRef shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) out << (i == 0 ? "" : ", ") << shape[i];
  out << ']';
  return out.str();
}

}  // namespace

TensorMapLoader::TensorMapLoader(const TensorMap& tensors, std::string source)
    : tensors_(tensors), source_(std::move(source)) {}

at::Tensor TensorMapLoader::take(const std::string& name) {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) {
    problems_.push_back(name + ": missing");
    return {};
  }
  used_.insert(name);
  const at::Tensor& stored = it->second;
  if (!stored.defined()) {
    problems_.push_back(name + ": no data");
    return {};
  }
  if (!at::isFloatingType(stored.scalar_type())) {
    problems_.push_back(name + ": dtype " + std::string(c10::toString(stored.scalar_type())) +
                        ", a weight must be floating point");
    return {};
  }
  // A NaN or infinity in a weight answers "LABEL_0 (p=-nan)" or makes fine-tuning's first loss
  // non-finite, which would blame the learning rate.
  // Flattened: LibTorch 2 reduces tensors of at most 64 dimensions, and a damaged file may say
  // more (its shape is refused below, by name).
  if (!at::isfinite(stored.reshape({-1})).all().item<bool>()) {
    problems_.push_back(name + ": holds NaN or infinite values (the file is damaged)");
    return {};
  }
  return stored;
}

bool TensorMapLoader::shapeMatches(const std::string& name, const at::Tensor& stored,
                                   at::IntArrayRef wanted) {
  if (stored.sizes() == wanted) return true;
  problems_.push_back(name + ": shape " + shapeText(stored.sizes()) + " in the checkpoint, " +
                      shapeText(wanted) + " expected");
  return false;
}

void TensorMapLoader::copy(const std::string& name, const at::Tensor& target) {
  copyReshaped(name, target.sizes(), target);
}

void TensorMapLoader::copyReshaped(const std::string& name, at::IntArrayRef stored_shape,
                                   const at::Tensor& target) {
  const at::Tensor stored = take(name);
  if (!stored.defined() || !shapeMatches(name, stored, stored_shape)) return;
  const at::NoGradGuard no_grad;  // the targets are parameters that require grad
  target.copy_(stored.reshape(target.sizes()));
}

void TensorMapLoader::copyConcatenated(const std::vector<std::string>& names,
                                       const at::Tensor& target) {
  std::vector<int64_t> part_shape = target.sizes().vec();
  part_shape[0] /= static_cast<int64_t>(names.size());
  std::vector<at::Tensor> parts;
  for (const std::string& name : names) {
    const at::Tensor stored = take(name);
    if (stored.defined() && shapeMatches(name, stored, part_shape)) parts.push_back(stored);
  }
  if (parts.size() != names.size()) return;
  const at::NoGradGuard no_grad;
  int64_t row = 0;
  for (const at::Tensor& part : parts) {
    target.narrow(0, row, part.size(0)).copy_(part);
    row += part.size(0);
  }
}

void TensorMapLoader::skip(const std::string& name) {
  used_.insert(name);
}

Status TensorMapLoader::finish() const {
  std::vector<std::string> problems = problems_;
  for (const auto& [name, tensor] : tensors_) {
    if (used_.count(name) == 0)
      problems.push_back(name +
                         ": unexpected (the model has no such "
                         "tensor)");
  }
  if (problems.empty()) return {};
  std::string message = source_ + ": " + std::to_string(problems.size()) +
                        (problems.size() == 1 ? " problem" : " problems") + " with the weights: ";
  for (size_t i = 0; i < problems.size() && i < kMaxListedProblems; ++i) {
    message += (i == 0 ? "" : "; ") + problems[i];
  }
  if (problems.size() > kMaxListedProblems) {
    message += "; and " + std::to_string(problems.size() - kMaxListedProblems) + " more";
  }
  return Error{message};
}

}  // namespace ascope
