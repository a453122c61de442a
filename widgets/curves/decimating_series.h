#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ascope {

struct SeriesPoint {
  double x = 0.0;
  double y = 0.0;
};

/// Bounded history of a metric for long runs: the most recent points at full resolution in a ring
/// buffer, older points in a long-term series that halves its resolution whenever it fills up.
/// Memory stays below recent + history capacity, the very first point is never dropped and the
/// newest is always present; appending is amortised O(1) (no erase at the front).
class DecimatingSeries {
 public:
  explicit DecimatingSeries(int recent_capacity = 4096, int history_capacity = 16384);

  void append(double x, double y);
  void clear();

  bool empty() const { return size() == 0; }
  int size() const { return static_cast<int>(history_.size()) + recent_size_; }
  int capacity() const { return recent_capacity_ + history_capacity_; }
  /// How many points were ever appended (not how many are kept).
  std::int64_t totalAppended() const { return total_; }
  /// One kept point per `stride` points in the long-term part.
  std::int64_t historyStride() const { return stride_; }

  SeriesPoint first() const;
  SeriesPoint last() const;
  /// Kept points, oldest first.
  std::vector<SeriesPoint> points() const;

  /// Calls fn(const SeriesPoint&) for every kept point, oldest first, without copying.
  template <typename Fn>
  void forEach(Fn&& fn) const {
    for (const SeriesPoint& p : history_) fn(p);
    for (int i = 0; i < recent_size_; ++i) fn(recent_[ringIndex(i)]);
  }

 private:
  std::size_t ringIndex(int i) const {
    return (recent_head_ + static_cast<std::size_t>(i)) %
           static_cast<std::size_t>(recent_capacity_);
  }
  void pushHistory(const SeriesPoint& p);

  int recent_capacity_;
  int history_capacity_;
  std::vector<SeriesPoint> recent_;  // ring storage, allocated once
  std::size_t recent_head_ = 0;      // index of the oldest recent point
  int recent_size_ = 0;
  std::vector<SeriesPoint> history_;
  std::int64_t stride_ = 1;
  std::int64_t evicted_ = 0;  // points that ever left the ring
  std::int64_t total_ = 0;
};

}  // namespace ascope
