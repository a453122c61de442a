#include "engine/datasets/text_samples_csv.h"

#include "engine/core/csv_field.h"

namespace ascope {

std::string textSamplesCsv(const std::vector<TextSample>& samples) {
  std::string csv = "text,label\n";
  for (const TextSample& s : samples) {
    csv += csvField(s.text);
    csv += ',';
    csv += std::to_string(s.label);
    csv += '\n';
  }
  return csv;
}

}  // namespace ascope
