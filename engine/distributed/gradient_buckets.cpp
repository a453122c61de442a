#include "engine/distributed/gradient_buckets.h"

#include <ATen/ops/from_blob.h>
#include <ATen/ops/zeros.h>

#include <string>

#include "engine/distributed/job_group.h"

namespace ascope {

GradientBuckets::GradientBuckets(std::vector<at::Tensor> parameters, int64_t bucket_bytes)
    : parameters_(std::move(parameters)) {
  // Consecutive parameters of one dtype and device share a bucket until it holds bucket_bytes.
  Bucket current;
  int64_t elements = 0;
  const auto close = [&] {
    if (current.members.empty()) return;
    const at::Tensor& first = parameters_[current.members.front()];
    current.flat = at::zeros({elements}, first.options().requires_grad(false));
    bytes_ += elements * static_cast<int64_t>(first.element_size());
    buckets_.push_back(std::move(current));
    current = Bucket{};
    elements = 0;
  };
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const at::Tensor& p = parameters_[i];
    if (!current.members.empty()) {
      const at::Tensor& first = parameters_[current.members.front()];
      if (p.scalar_type() != first.scalar_type() || p.device() != first.device() ||
          (elements + p.numel()) * static_cast<int64_t>(p.element_size()) > bucket_bytes) {
        close();
      }
    }
    current.members.push_back(i);
    current.offsets.push_back(elements);
    elements += p.numel();
  }
  close();
}

void GradientBuckets::allReduce(JobGroup& group, std::vector<double>& sums) {
  const double weight = sums.at(0);
  // pack: w_r · grad_r; a parameter without a gradient here adds zeros, and says so in `defined`
  const std::size_t extra = sums.size();
  std::vector<double> totals = sums;
  totals.resize(extra + parameters_.size(), 0.0);
  for (const Bucket& bucket : buckets_) {
    for (std::size_t m = 0; m < bucket.members.size(); ++m) {
      const at::Tensor& p = parameters_[bucket.members[m]];
      at::Tensor slot = bucket.flat.narrow(0, bucket.offsets[m], p.numel());
      const at::Tensor& grad = p.grad();
      if (!grad.defined()) {
        slot.zero_();
        continue;
      }
      totals[extra + bucket.members[m]] = 1.0;
      // A row-sparse embedding gradient (engine/models/text_classifier.h) travels dense.
      slot.view(p.sizes()).copy_(grad.is_sparse() ? grad.to_dense() : grad);
    }
    bucket.flat.mul_(weight);
  }
  at::Tensor sum_tensor =
      at::from_blob(totals.data(), {static_cast<int64_t>(totals.size())}, at::kDouble).clone();

  // all-reduce: every bucket and the sums, launched together
  std::vector<at::Tensor> tensors;
  for (const Bucket& bucket : buckets_) tensors.push_back(bucket.flat);
  tensors.push_back(sum_tensor);
  group.allReduceSum(tensors, "the gradient all-reduce");
  const double* summed = sum_tensor.data_ptr<double>();
  for (std::size_t i = 0; i < extra; ++i) sums[i] = summed[i];

  // unpack: Σ w_r·grad_r / Σ w_r, each gradient a view of its bucket until the next step's
  // backward makes new ones (the optimizer releases them first)
  const double total_weight = sums[0];
  for (const Bucket& bucket : buckets_) {
    if (total_weight > 0) bucket.flat.div_(total_weight);
    for (std::size_t m = 0; m < bucket.members.size(); ++m) {
      at::Tensor& p = parameters_[bucket.members[m]];
      if (summed[extra + bucket.members[m]] == 0.0) {
        p.mutable_grad() = at::Tensor();
        continue;
      }
      p.mutable_grad() = bucket.flat.narrow(0, bucket.offsets[m], p.numel()).view(p.sizes());
    }
  }
}

}  // namespace ascope
