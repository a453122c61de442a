#include "engine/nn/hash_dropout.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include "engine/nn/batch_shard.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

namespace ascope {
namespace {

constexpr int64_t kDropoutGrain = 1 << 14;

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

// splitmix64's finaliser: folds one coordinate after another into a row's key.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// The key of row `row` of a contiguous tensor of `sizes` (all but the last dimension make the
// row's coordinates), the first coordinate moved by `first_offset`.
uint64_t rowKey(uint64_t seed, int64_t row, at::IntArrayRef sizes, int64_t first_offset) {
  const auto dims = static_cast<int64_t>(sizes.size()) - 1;
  int64_t coordinates[16];
  for (int64_t d = dims - 1; d >= 0; --d) {
    coordinates[d] = row % sizes[d];
    row /= sizes[d];
  }
  coordinates[0] += first_offset;
  uint64_t key = seed;
  for (int64_t d = 0; d < dims; ++d) {
    key = mix64(key ^ (static_cast<uint64_t>(coordinates[d]) * kGolden + static_cast<uint64_t>(d)));
  }
  return key;
}

// Built for AVX2 too, chosen at run time where the CPU has it (as LibTorch's own kernels are).
// Element k of the row is the one at last coordinate first_index + k.
__attribute__((target_clones("avx2", "default"))) void fillRow(float* __restrict out, int64_t count,
                                                               int64_t first_index, uint64_t key,
                                                               uint32_t threshold, float scale) {
  const auto low = static_cast<uint32_t>(key);
  const auto high = static_cast<uint32_t>(key >> 32);
  for (int64_t k = 0; k < count; ++k) {
    const uint32_t h = mix(mix(static_cast<uint32_t>(first_index + k) ^ low) ^ high);
    out[k] = h < threshold ? scale : 0.0f;
  }
}

// How far the first coordinate of `sizes` moves for this thread's batch shard.
int64_t shardOffset(at::IntArrayRef sizes) {
  const int64_t first_size = sizes.empty() ? 1 : sizes[0];
  const BatchShard shard = currentBatchShard(first_size);
  if (shard.first == 0) return 0;
  if (shard.size <= 0 || first_size % shard.size != 0) {
    throw std::logic_error("dropout over a batch shard of " + std::to_string(shard.size) +
                           " samples needs the batch as first dimension, got " +
                           std::to_string(first_size));
  }
  return shard.first * (first_size / shard.size);
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
  if (mask.numel() == 0) return x * mask;
  if (x.dim() > 16) throw std::invalid_argument("hashDropout: more than 16 dimensions");
  const at::IntArrayRef sizes = x.sizes();
  const int64_t offset = shardOffset(sizes);
  // A 0- or 1-dimensional tensor is one row whose elements are the first coordinate.
  const bool one_row = x.dim() <= 1;
  const int64_t row_length = one_row ? mask.numel() : sizes.back();
  float* out = mask.data_ptr<float>();
  at::parallel_for(0, mask.numel(), kDropoutGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end;) {
      const int64_t row = i / row_length, column = i % row_length;
      const int64_t count = std::min(end - i, row_length - column);
      if (one_row) {
        fillRow(out + i, count, column + offset, seed, threshold, scale);
      } else {
        fillRow(out + i, count, column, rowKey(seed, row, sizes, offset), threshold, scale);
      }
      i += count;
    }
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
