#include "app/gui/window/scripted/eta_track.h"

#include <algorithm>
#include <cmath>

namespace ascope {

void EtaTrack::add(double now_s, double left_s, double low_s, double high_s) {
  estimates_.push_back({now_s, now_s + left_s, now_s + low_s, now_s + high_s});
}

std::optional<EtaTrack::Verdict> EtaTrack::verdict(double start_s, double end_s) const {
  const double run_s = end_s - start_s;
  if (estimates_.empty() || !(run_s > 0)) return std::nullopt;
  Verdict v;
  std::size_t inside = 0;
  for (const Estimate& e : estimates_) {
    if (e.at_s > end_s) continue;  // said after the end: the window no longer shows one
    ++v.estimates;
    const double error = std::fabs(e.end_s - end_s) / run_s;
    if (error > v.worst_error) {
      v.worst_error = error;
      v.worst_at_s = e.at_s - start_s;
    }
    if (e.at_s - start_s >= 0.1 * run_s) v.worst_error_later = std::max(v.worst_error_later, error);
    if (e.low_end_s <= end_s && end_s <= e.high_end_s) ++inside;
  }
  if (v.estimates == 0) return std::nullopt;
  v.in_range_share = static_cast<double>(inside) / static_cast<double>(v.estimates);
  return v;
}

}  // namespace ascope
