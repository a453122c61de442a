#include "engine/nn/hash_dropout.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

namespace ascope {
namespace {

constexpr int64_t kGrain = 1 << 14;

// A 32-bit integer hash with low bias (multiply-xorshift); two rounds with the two halves of the
// seed between them. 32-bit arithmetic so that the loop vectorises.
inline uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

uint64_t drawSeed() {
  at::Generator generator = at::detail::getDefaultCPUGenerator();
  std::lock_guard<std::mutex> lock(generator.mutex());
  return generator.get<at::CPUGeneratorImpl>()->random64();
}

// Built for AVX2 too, chosen at run time where the CPU has it (as LibTorch's own kernels are).
__attribute__((target_clones("avx2", "default"))) void fillMask(float* __restrict out,
                                                                int64_t begin, int64_t end,
                                                                uint64_t seed, uint32_t threshold,
                                                                float scale) {
  const auto low = static_cast<uint32_t>(seed);
  const auto high = static_cast<uint32_t>(seed >> 32);
  for (int64_t i = begin; i < end; ++i) {
    const uint32_t h = mix(mix(static_cast<uint32_t>(i) ^ low) ^ high);
    out[i] = h < threshold ? scale : 0.0f;
  }
}

void checkProbability(double p) {
  // Written so that NaN fails too.
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument("dropout probability must be in [0, 1], got " + std::to_string(p));
  }
}

}  // namespace

Tensor hashDropout(const Tensor& x, double p, bool training) {
  checkProbability(p);
  if (!training || p == 0.0) return x;
  if (p == 1.0 || !x.device().is_cpu() || x.scalar_type() != at::kFloat ||
      x.numel() > (int64_t{1} << 32)) {
    return at::dropout(x, p, true);
  }
  const double keep = 1.0 - p;
  const double scaled_keep = keep * 4294967296.0;
  // A p so small that 1 - p rounds to 1 keeps everything (and 2^32 would not fit the threshold).
  if (scaled_keep >= 4294967295.0) return x;
  const auto threshold = static_cast<uint32_t>(scaled_keep);
  const auto scale = static_cast<float>(1.0 / keep);
  const uint64_t seed = drawSeed();
  Tensor mask = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
  float* out = mask.data_ptr<float>();
  at::parallel_for(0, mask.numel(), kGrain, [&](int64_t begin, int64_t end) {
    fillMask(out, begin, end, seed, threshold, scale);
  });
  return x * mask;
}

HashDropoutImpl::HashDropoutImpl(double p) : p_(p) {
  checkProbability(p);
}

Tensor HashDropoutImpl::forward(const Tensor& x) {
  return hashDropout(x, p_, is_training());
}

}  // namespace ascope
