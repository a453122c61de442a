#pragma once
// The values of a task's declared figures (metric_info.h) from one evaluation: BLEU and its kin
// for a translation, nothing for a classifier. Carried by every structure that reports an
// evaluation (EpochSummary, TestEvaluation, EvaluationReport, an ablation row), in the order they
// were set.
#include <optional>
#include <string>
#include <vector>

namespace ascope {

struct Figure {
  std::string key;
  double value = 0;
};

class Figures {
 public:
  /// Sets `key` to `value`, replacing an earlier value of the same key.
  void set(const std::string& key, double value);
  std::optional<double> get(const std::string& key) const;
  bool has(const std::string& key) const { return get(key).has_value(); }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const std::vector<Figure>& items() const { return items_; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

  friend bool operator==(const Figures& a, const Figures& b);

 private:
  std::vector<Figure> items_;
};

}  // namespace ascope
