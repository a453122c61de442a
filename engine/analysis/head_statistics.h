#pragma once
// Numbers that say what each attention head does (how spread out, how far, onto which tokens),
// averaged over the probe samples, so that heads can be compared and followed through training.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/events.h"

namespace ascope {

// HeadStatistic, one metric of one head, is in engine/vocabulary/events.h: the trainer sends them.

struct HeadMetricInfo {
  const char* name;
  const char* description;  ///< one line for people (tooltips)
  bool unit_range;          ///< the value lies in [0, 1]
};

/// Every metric headStatistics computes, in the order it lists them (and a chooser should).
inline constexpr std::array<HeadMetricInfo, 8> kHeadMetrics{{
    {"entropy",
     "How evenly a query spreads its attention: 0 = on one key, 1 = evenly on every key it sees",
     true},
    {"distance",
     "Mean distance from a query to the keys it attends to: in tokens for text, in pixels between "
     "patch centres for images",
     false},
    {"special_mass", "Share of attention on special tokens (CLS, [SOS], [EOS], [PAD], [SEP])",
     true},
    {"first_token_mass", "Share of attention on the first token of the keys", true},
    {"max_weight", "Weight of a query's strongest key: 1 = all attention on a single key", true},
    {"diagonal", "Share of attention a token pays to itself", true},
    {"previous_token", "Share of attention on the token just before the query", true},
    {"next_token", "Share of attention on the token just after the query (not in causal decoders)",
     true},
}};

/// The entry of kHeadMetrics called `name`; nullptr for any other name.
const HeadMetricInfo* findHeadMetric(std::string_view name);

/// Whether `label` is one of `special_tokens`, the labels of tokens that are not words (the task
/// says which: TaskDescriptor::special_tokens, e.g. CLS, [PAD], [SOS]). Unknown-word tokens ([UNK],
/// <unk>) stand for words: no task lists them.
bool isSpecialTokenLabel(std::string_view label, const std::vector<std::string>& special_tokens);

/// Every metric of every head of every group in `probe_set`, groups in the order they first
/// appear, then by layer, head and kHeadMetrics order. Per head, a metric is the mean over the
/// query rows of one sample it is defined for, then the mean over the samples where it was
/// defined for at least one row (samples may differ in length):
///   entropy           row entropy / log(keys the row sees); a causal row i sees i + 1 keys
///   distance          Σ_j w_ij·|i − j| in tokens; on a snapshot of image patches (tokenGridOf,
///   engine/vocabulary/payloads/token_grid.h) patch rows
///                     over patch keys only, their weights renormalised, in pixels between patch
///                     centres; self-attention only
///   special_mass      weight on keys labelled with one of `special_tokens`; only in samples
///                     that have one
///   first_token_mass  w_i0
///   max_weight        the row's largest weight
///   diagonal, previous_token (rows i ≥ 1), next_token (rows i ≤ n − 2, not causal groups):
///                     w_ii, w_i,i−1, w_i,i+1; self-attention only
/// Rows that see a single key (row 0 of a causal group) are left out of every metric: their one
/// weight is 1 whatever the head learned. Groups that fail checkAttentionGroupShape are skipped.
std::vector<HeadStatistic> headStatistics(const std::vector<AttentionSnapshot>& probe_set,
                                          const std::vector<std::string>& special_tokens);

}  // namespace ascope
