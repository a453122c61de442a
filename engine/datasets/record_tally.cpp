#include "engine/datasets/record_tally.h"

namespace ascope {

void RecordTally::add(const std::string& where, std::size_t n) {
  if (n == 0) return;
  count_ += n;
  ++places_;
  if (examples_.size() < kExamples) examples_.push_back(where);
}

void RecordTally::appendWarning(const std::string& source,
                                std::vector<std::string>& warnings) const {
  if (count_ == 0) return;
  const bool more = places_ > examples_.size();
  std::string line = source + ": " + std::to_string(count_) + " " + what_ + " (";
  line += more ? "first: " : "";
  for (std::size_t i = 0; i < examples_.size(); ++i) line += (i ? ", " : "") + examples_[i];
  line += more ? ", …)" : ")";
  warnings.push_back(std::move(line));
}

std::string withWarnings(std::string message, const std::string& source,
                         const std::vector<std::string>& warnings) {
  const std::string prefix = source + ": ";
  for (const auto& warning : warnings) {
    message += "; ";
    message +=
        warning.compare(0, prefix.size(), prefix) == 0 ? warning.substr(prefix.size()) : warning;
  }
  return message;
}

}  // namespace ascope
