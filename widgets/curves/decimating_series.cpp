#include "widgets/curves/decimating_series.h"

#include <algorithm>

namespace ascope {

DecimatingSeries::DecimatingSeries(int recent_capacity, int history_capacity)
    : recent_capacity_(std::max(1, recent_capacity)),
      history_capacity_(std::max(2, history_capacity)),
      recent_(static_cast<std::size_t>(recent_capacity_)) {
  history_.reserve(static_cast<std::size_t>(history_capacity_));
}

void DecimatingSeries::append(double x, double y) {
  ++total_;
  const SeriesPoint p{x, y};
  if (recent_size_ < recent_capacity_) {
    recent_[ringIndex(recent_size_)] = p;
    ++recent_size_;
    return;
  }
  // Ring full: the oldest point moves to the long-term series and the new one takes its slot.
  pushHistory(recent_[recent_head_]);
  recent_[recent_head_] = p;
  recent_head_ = (recent_head_ + 1) % static_cast<std::size_t>(recent_capacity_);
}

void DecimatingSeries::pushHistory(const SeriesPoint& p) {
  const bool keep = evicted_ % stride_ == 0;
  ++evicted_;
  if (!keep) return;
  history_.push_back(p);
  if (static_cast<int>(history_.size()) < history_capacity_) return;
  // Halve the resolution in place: keep points 0, 2, 4, ... (point 0 is the first ever) and from
  // now on accept every (2 * stride)-th evicted point, which continues the same spacing.
  const std::size_t kept = (history_.size() + 1) / 2;
  for (std::size_t i = 1; i < kept; ++i) history_[i] = history_[2 * i];
  history_.resize(kept);
  stride_ *= 2;
}

void DecimatingSeries::clear() {
  recent_head_ = 0;
  recent_size_ = 0;
  history_.clear();
  stride_ = 1;
  evicted_ = 0;
  total_ = 0;
}

SeriesPoint DecimatingSeries::first() const {
  if (!history_.empty()) return history_.front();
  return recent_size_ > 0 ? recent_[recent_head_] : SeriesPoint{};
}

SeriesPoint DecimatingSeries::last() const {
  return recent_size_ > 0 ? recent_[ringIndex(recent_size_ - 1)] : SeriesPoint{};
}

std::vector<SeriesPoint> DecimatingSeries::points() const {
  std::vector<SeriesPoint> out;
  out.reserve(static_cast<std::size_t>(size()));
  forEach([&out](const SeriesPoint& p) { out.push_back(p); });
  return out;
}

}  // namespace ascope
