#include "engine/analysis/head_kind.h"

#include <cstddef>
#include <cstdio>
#include <utility>

namespace ascope {
namespace {

/// The metric behind each pattern kind, in kHeadKinds order.
constexpr std::array<std::pair<const char*, const char*>, 5> kPatternMetrics{{
    {"previous-token", "previous_token"},
    {"next-token", "next_token"},
    {"self", "diagonal"},
    {"first-token", "first_token_mass"},
    {"special-token", "special_mass"},
}};

/// "1,200"
std::string stepWithThousands(int64_t step) {
  std::string digits = std::to_string(step);
  const bool negative = digits.front() == '-';
  if (negative) digits.erase(0, 1);
  std::string out = negative ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string changeText(const HeadKindChange& c) {
  char score[32];
  std::snprintf(score, sizeof score, "%.2f", c.score);
  return "step " + stepWithThousands(c.step) + ": " + c.group + " layer " +
         std::to_string(c.layer) + " head " + std::to_string(c.head) + " became " + c.to + " (" +
         score + "; was " + c.from + ")";
}

double metricOr(const HeadMetricValues& metrics, const char* name, double otherwise) {
  const auto found = metrics.find(name);
  return found == metrics.end() ? otherwise : found->second;
}

/// Whether a head of `kind` still counts as one, with kHeadKindMargin of slack below (or above)
/// the threshold that made it one, when the plain verdict says `verdict`. Without the slack, a
/// head whose entropy wanders around 0.85 would be reported "broad", "mixed", "broad", …
bool stillHolds(const std::string& kind, const HeadKindVerdict& verdict,
                const HeadMetricValues& metrics) {
  for (const auto& [pattern, metric] : kPatternMetrics) {
    if (kind != pattern) continue;
    const bool other_pattern = verdict.kind != "broad" && verdict.kind != "mixed";
    return !other_pattern &&
           metricOr(metrics, metric, 0) >= kHeadPatternThreshold - kHeadKindMargin;
  }
  if (verdict.kind != "broad" && verdict.kind != "mixed") return false;  // a pattern appeared
  const double entropy = metricOr(metrics, "entropy", 0);
  if (kind == "broad") return entropy >= kBroadEntropyThreshold - kHeadKindMargin;
  if (kind == "mixed") return entropy < kBroadEntropyThreshold + kHeadKindMargin;
  return false;
}

}  // namespace

HeadKindVerdict classifyHead(const HeadMetricValues& metrics) {
  HeadKindVerdict best;
  for (const auto& [kind, metric] : kPatternMetrics) {
    const auto found = metrics.find(metric);
    if (found == metrics.end() || !(found->second >= kHeadPatternThreshold)) continue;
    if (best.kind.empty() || found->second > best.score) best = {kind, found->second};
  }
  if (!best.kind.empty()) return best;
  const auto entropy = metrics.find("entropy");
  const double score = entropy == metrics.end() ? 0 : entropy->second;
  return {score >= kBroadEntropyThreshold ? "broad" : "mixed", score};
}

std::vector<HeadKindChange> HeadKindTracker::observe(int64_t step,
                                                     const std::vector<HeadStatistic>& statistics) {
  std::map<std::tuple<std::string, int, int>, HeadMetricValues> observed;
  for (const HeadStatistic& s : statistics)
    observed[{s.group, s.layer, s.head}][s.metric] = s.value;

  std::vector<HeadKindChange> changes;
  for (const auto& [key, metrics] : observed) {
    const HeadKindVerdict verdict = classifyHead(metrics);
    const auto [it, first_time] = heads_.try_emplace(key);
    HeadState& state = it->second;
    if (!first_time && verdict.kind != state.kind && stillHolds(state.kind, verdict, metrics)) {
      state.candidate.clear();
      state.candidate_seen = 0;
      continue;
    }
    if (first_time || verdict.kind == state.kind) {
      state.kind = verdict.kind;
      state.candidate.clear();
      state.candidate_seen = 0;
      continue;
    }
    state.candidate_seen = verdict.kind == state.candidate ? state.candidate_seen + 1 : 1;
    state.candidate = verdict.kind;
    if (state.candidate_seen < kConfirmations) continue;

    HeadKindChange change;
    change.step = step;
    std::tie(change.group, change.layer, change.head) = key;
    change.from = state.kind;
    change.to = verdict.kind;
    change.score = verdict.score;
    change.text = changeText(change);
    changes.push_back(std::move(change));
    state.kind = verdict.kind;
    state.candidate.clear();
    state.candidate_seen = 0;
  }
  return changes;
}

std::string HeadKindTracker::kindOf(const std::string& group, int layer, int head) const {
  const auto found = heads_.find({group, layer, head});
  return found == heads_.end() ? std::string() : found->second.kind;
}

}  // namespace ascope
