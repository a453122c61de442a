#include "widgets/attention/attention_run_maxima.h"

#include "widgets/attention/attention_head_display.h"
#include "widgets/attention/attention_plot_data.h"

#include <algorithm>

namespace ascope {

AttentionRunMaxima::AttentionRunMaxima(const std::vector<std::vector<float>>& tops) {
  tops_.reserve(tops.size());
  for (const std::vector<float>& layer : tops) tops_.emplace_back(layer.begin(), layer.end());
}

void AttentionRunMaxima::add(const AttentionPlotGroup& group) {
  if (tops_.size() < group.layers.size()) tops_.resize(group.layers.size());
  for (std::size_t l = 0; l < group.layers.size(); ++l) {
    const std::vector<LabeledMatrix>& heads = group.layers[l];
    std::vector<double>& tops = tops_[l];
    if (tops.size() < heads.size()) tops.resize(heads.size(), 0.0);
    for (std::size_t h = 0; h < heads.size(); ++h)
      tops[h] = std::max(tops[h], AttentionHeadDisplay::informativeMax(heads[h], group.causal));
  }
}

void AttentionRunMaxima::raise(const AttentionRunMaxima& other) {
  if (tops_.size() < other.tops_.size()) tops_.resize(other.tops_.size());
  for (std::size_t l = 0; l < other.tops_.size(); ++l) {
    std::vector<double>& tops = tops_[l];
    const std::vector<double>& theirs = other.tops_[l];
    if (tops.size() < theirs.size()) tops.resize(theirs.size(), 0.0);
    for (std::size_t h = 0; h < theirs.size(); ++h) tops[h] = std::max(tops[h], theirs[h]);
  }
}

std::vector<double> AttentionRunMaxima::layer(int layer) const {
  if (layer < 0 || layer >= static_cast<int>(tops_.size())) return {};
  return tops_[static_cast<std::size_t>(layer)];
}

double AttentionRunMaxima::overall() const {
  double top = 0.0;
  for (const std::vector<double>& tops : tops_)
    for (double t : tops) top = std::max(top, t);
  return top;
}

}  // namespace ascope
