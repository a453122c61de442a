// Beam search on a made-up decoder whose probabilities are known: a beam of 1 is greedy, a wider
// one finds the likelier sentence greedy misses, the length limit holds, sources searched together
// are searched as alone, and the tree records what each step weighed.
#include "engine/tasks/translation/beam_search.h"

#include <gtest/gtest.h>
#include <torch/types.h>

#include <cmath>
#include <map>
#include <vector>

namespace ascope {
namespace {

constexpr int64_t kVocab = 6, kEos = 3, kA = 4, kB = 5;
using Ids = std::vector<int64_t>;

/// Next-token probabilities by prefix (after [SOS]); a prefix not listed says [EOS] almost surely.
/// Source 1 prefers B where source 0 prefers A.
NextTokenLogProbs madeUp(int* calls = nullptr, bool never_ends = false) {
  return [calls, never_ends](const torch::Tensor& rows, const torch::Tensor& prefixes) {
    if (calls != nullptr) ++*calls;
    const int64_t n = prefixes.size(0);
    torch::Tensor out = torch::full({n, kVocab}, -std::numeric_limits<float>::infinity());
    for (int64_t r = 0; r < n; ++r) {
      Ids prefix;
      for (int64_t t = 1; t < prefixes.size(1); ++t)
        prefix.push_back(prefixes[r][t].item<int64_t>());
      const bool swapped = rows[r].item<int64_t>() == 1;
      const int64_t a = swapped ? kB : kA, b = swapped ? kA : kB;
      std::map<int64_t, double> p;
      if (never_ends) {
        p = {{kA, 0.7}, {kB, 0.29}, {kEos, 0.01}};
      } else if (prefix.empty()) {
        p = {{a, 0.6}, {b, 0.4}};
      } else if (prefix == Ids{a}) {
        p = {{a, 0.3}, {b, 0.3}, {kEos, 0.4}};
      } else if (prefix == Ids{b}) {
        p = {{kEos, 0.9}, {a, 0.1}};
      } else {
        p = {{kEos, 0.98}, {kA, 0.01}, {kB, 0.01}};
      }
      for (const auto& [token, probability] : p) out[r][token] = std::log(probability);
    }
    return out;
  };
}

std::vector<BeamResult> search(int width, std::vector<int64_t> limits, double alpha = 0,
                               bool never_ends = false, bool tree = true) {
  BeamSettings s;
  s.width = width;
  s.length_alpha = alpha;
  return beamSearch(madeUp(nullptr, never_ends), limits, s, {}, torch::kCPU, tree);
}

TEST(BeamSearch, AWidthOfOneIsGreedy) {
  const BeamResult r = search(1, {10}).front();
  ASSERT_FALSE(r.finished.empty());
  EXPECT_EQ(r.finished.front().tokens, (Ids{kA}));  // A (0.6), then [EOS] (0.4)
  EXPECT_NEAR(r.finished.front().log_prob, std::log(0.6 * 0.4), 1e-6);
}

TEST(BeamSearch, AWiderBeamFindsTheLikelierSentence) {
  const BeamResult r = search(2, {10}).front();
  ASSERT_GE(r.finished.size(), 2u);
  EXPECT_EQ(r.finished[0].tokens, (Ids{kB}));  // B (0.4), then [EOS] (0.9): 0.36 > 0.24
  EXPECT_NEAR(r.finished[0].log_prob, std::log(0.4 * 0.9), 1e-6);
  EXPECT_EQ(r.finished[1].tokens, (Ids{kA}));
  for (std::size_t i = 1; i < r.finished.size(); ++i) {
    EXPECT_GE(r.finished[i - 1].score, r.finished[i].score);
  }
}

TEST(BeamSearch, LengthNormalisationIsGnmts) {
  EXPECT_DOUBLE_EQ(lengthNormalised(-2.0, 7, 0.0), -2.0);
  EXPECT_NEAR(lengthNormalised(-2.0, 7, 0.6), -2.0 / std::pow(2.0, 0.6), 1e-12);
  const BeamResult r = search(2, {10}, 0.6).front();
  ASSERT_FALSE(r.finished.empty());
  EXPECT_NEAR(r.finished[0].score, lengthNormalised(r.finished[0].log_prob, 2, 0.6), 1e-9);
}

TEST(BeamSearch, EachSourceStopsAtItsOwnLengthLimit) {
  const std::vector<BeamResult> r = search(3, {3, 5}, 0, /*never_ends=*/true);
  ASSERT_EQ(r.size(), 2u);
  for (std::size_t s = 0; s < 2; ++s) {
    ASSERT_FALSE(r[s].finished.empty());
    for (const BeamHypothesis& h : r[s].finished) {
      EXPECT_LE(h.tokens.size(), s == 0 ? 3u : 5u);
    }
  }
  EXPECT_EQ(r[0].finished.front().tokens, (Ids{kA, kA, kA}));
}

TEST(BeamSearch, SourcesSearchedTogetherAreSearchedAsAlone) {
  const std::vector<BeamResult> together = search(2, {10, 10});
  const BeamResult first = search(2, {10}).front();
  ASSERT_EQ(together.size(), 2u);
  EXPECT_EQ(together[0].finished.front().tokens, first.finished.front().tokens);
  // Source 1's table is source 0's with A and B swapped.
  EXPECT_EQ(together[1].finished.front().tokens, (Ids{kA}));
  EXPECT_NEAR(together[1].finished.front().log_prob, first.finished.front().log_prob, 1e-9);
}

TEST(BeamSearch, TheTreeHoldsEveryCandidateWeighedAndEachHypothesisPath) {
  const BeamResult r = search(2, {10}).front();
  int kept = 0, finished = 0, pruned = 0;
  for (const BeamNode& n : r.nodes) {
    kept += n.fate == BeamNode::Fate::kKept;
    finished += n.fate == BeamNode::Fate::kFinished;
    pruned += n.fate == BeamNode::Fate::kPruned;
    if (n.parent >= 0) {
      EXPECT_EQ(r.nodes[static_cast<std::size_t>(n.parent)].step, n.step - 1);
    }
  }
  EXPECT_EQ(kept, 2);  // A and B after [SOS]
  EXPECT_EQ(finished, static_cast<int>(r.finished.size()));
  EXPECT_GT(pruned, 0);  // A's other continuations
  for (const BeamHypothesis& h : r.finished) {
    // Walking up from the hypothesis' node gives its tokens ([EOS] last).
    Ids path;
    for (int at = h.node; at >= 0; at = r.nodes[static_cast<std::size_t>(at)].parent) {
      path.insert(path.begin(), r.nodes[static_cast<std::size_t>(at)].token);
    }
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(path.back(), kEos);
    path.pop_back();
    EXPECT_EQ(path, h.tokens);
  }
  // Without the tree only what was kept or finished is recorded.
  const BeamResult lean = search(2, {10}, 0, false, /*tree=*/false).front();
  for (const BeamNode& n : lean.nodes) EXPECT_NE(n.fate, BeamNode::Fate::kPruned);
  EXPECT_EQ(lean.finished.front().tokens, r.finished.front().tokens);
}

}  // namespace
}  // namespace ascope
