#include "engine/vocabulary/figures_text.h"

namespace ascope {

std::string figuresText(const Figures& figures, const std::vector<MetricInfo>& declared,
                        const std::string& separator) {
  std::string out;
  for (const Figure& f : figures) {
    const MetricInfo* known = findMetric(declared, f.key);
    const MetricInfo info = known ? *known : undeclaredMetric(f.key);
    if (!out.empty()) out += separator;
    out += info.title + " " + info.format(f.value);
  }
  return out;
}

}  // namespace ascope
