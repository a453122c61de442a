#include "engine/vocabulary/figures.h"

namespace ascope {

void Figures::set(const std::string& key, double value) {
  for (Figure& f : items_) {
    if (f.key == key) {
      f.value = value;
      return;
    }
  }
  items_.push_back({key, value});
}

std::optional<double> Figures::get(const std::string& key) const {
  for (const Figure& f : items_) {
    if (f.key == key) return f.value;
  }
  return std::nullopt;
}

bool operator==(const Figures& a, const Figures& b) {
  if (a.items_.size() != b.items_.size()) return false;
  for (std::size_t i = 0; i < a.items_.size(); ++i) {
    const Figure& x = a.items_[i];
    const Figure& y = b.items_[i];
    // NaN equals NaN here: a diverged run's figures read back as they were written.
    const bool same = x.value == y.value || (x.value != x.value && y.value != y.value);
    if (x.key != y.key || !same) return false;
  }
  return true;
}

}  // namespace ascope
