#pragma once
// A name for what a head does, read off its statistics (head_statistics.h), and a tracker that
// says when a head's kind changes during training ("encoder layer 1 head 3 became
// previous-token"), without reporting heads that waver between two kinds.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "engine/analysis/head_statistics.h"

namespace ascope {

struct HeadKindInfo {
  const char* name;
  const char* description;  ///< one line for people (legends, tooltips)
};

/// Every kind classifyHead gives, in precedence order (see classifyHead).
inline constexpr std::array<HeadKindInfo, 7> kHeadKinds{{
    {"previous-token", "attends mostly to the token just before"},
    {"next-token", "attends mostly to the token just after"},
    {"self", "attends mostly to its own token"},
    {"first-token", "attends mostly to the first token"},
    {"special-token", "attends mostly to special tokens (CLS, [SOS], [EOS], [PAD])"},
    {"broad", "spreads its attention evenly over many tokens"},
    {"mixed", "none of the above"},
}};

/// A pattern kind needs its metric at this value or above (half of the head's attention).
inline constexpr double kHeadPatternThreshold = 0.5;
/// "broad" needs the normalised entropy at this value or above.
inline constexpr double kBroadEntropyThreshold = 0.85;
/// A head keeps its kind until its metric is this far on the other side of the threshold
/// (hysteresis), so a value that wanders around a threshold is not reported at every probe.
inline constexpr double kHeadKindMargin = 0.05;

struct HeadKindVerdict {
  std::string kind;
  /// The metric that decided: the pattern's share, the entropy for "broad" and "mixed".
  double score = 0;
};

/// One head's metrics by name (HeadStatistic::metric → value); missing ones count as absent.
using HeadMetricValues = std::map<std::string, double>;

/// The kind of one head. Of the pattern kinds whose metric is at least kHeadPatternThreshold
/// (previous_token, next_token, diagonal → "self", first_token_mass, special_mass), the one with
/// the highest value wins; equal values go by kHeadKinds order, so a ViT head on CLS, whose
/// first-token and special-token shares are the same number, reads "first-token". Without a
/// pattern: "broad" when entropy ≥ kBroadEntropyThreshold, else "mixed".
HeadKindVerdict classifyHead(const HeadMetricValues& metrics);

// HeadKindChange, what observe() reports, is in engine/vocabulary/events.h: the trainer sends them.

class HeadKindTracker {
 public:
  /// A new kind must be seen at this many consecutive observations of a head before it counts.
  static constexpr int kConfirmations = 2;

  /// Classifies every head in `statistics` (one probe pass at `step`) and returns the heads whose
  /// kind changed. The first observation of a head sets its kind and reports nothing; a head
  /// absent from an observation keeps its state.
  std::vector<HeadKindChange> observe(int64_t step, const std::vector<HeadStatistic>& statistics);

  /// The confirmed kind of a head; empty when it was never observed.
  std::string kindOf(const std::string& group, int layer, int head) const;

 private:
  struct HeadState {
    std::string kind;
    std::string candidate;  ///< a different kind seen at the last observations
    int candidate_seen = 0;
  };
  std::map<std::tuple<std::string, int, int>, HeadState> heads_;
};

}  // namespace ascope
