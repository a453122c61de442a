#pragma once
// Beam search over a decoder that gives the next token's log-probabilities: K hypotheses kept per
// source, a finished one set aside when it says [EOS], the best finished one chosen by its score
// normalised for length (GNMT's penalty, ((5 + length) / 6)^alpha), each source stopping at its
// own length limit. Several sources search together, their hypotheses batched into one decoder
// call per step; the host reads each step's candidates once.
// Every candidate a step weighed is kept as a node of the beam's tree (kept, finished or pruned),
// so the Decoding dock can draw the tree and show a hypothesis' steps.
#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace ascope {

struct BeamSettings {
  int width = 4;              ///< hypotheses kept per step (1: greedy)
  double length_alpha = 0.6;  ///< 0: no length normalisation
};

/// One candidate a step weighed: a token after a parent hypothesis.
struct BeamNode {
  int step = 0;     ///< 0 for the first token after [SOS]
  int parent = -1;  ///< the node it continues (-1: [SOS])
  int64_t token = 0;
  double log_prob = 0;  ///< of the whole hypothesis up to and with `token`
  double score = 0;     ///< log_prob normalised for length (what finished ones are ranked by)
  enum class Fate { kKept, kFinished, kPruned } fate = Fate::kPruned;
};

/// A finished hypothesis: its tokens (no specials) and its node in the tree.
struct BeamHypothesis {
  std::vector<int64_t> tokens;
  double log_prob = 0;
  double score = 0;
  int node = -1;  ///< its last node ([EOS], or the last token where the length limit stopped it)
};

struct BeamResult {
  std::vector<BeamHypothesis> finished;  ///< best first; finished[0] is the translation
  std::vector<BeamNode> nodes;           ///< the tree, in the order the steps made them
};

/// Log-probabilities (N, V) of the next token for hypotheses `prefixes` (N, T) ([SOS] first) of
/// sources `rows` (N, the index of each hypothesis' source). No grad.
using NextTokenLogProbs =
    std::function<torch::Tensor(const torch::Tensor& rows, const torch::Tensor& prefixes)>;

struct BeamTokens {
  int64_t sos = 2, eos = 3, pad = 1;
};

/// Searches every source: `limits[s]` is the most tokens source s may say ([EOS] included).
/// `keep_tree`: record the nodes (a view asks for it; evaluation does not).
std::vector<BeamResult> beamSearch(const NextTokenLogProbs& next,
                                   const std::vector<int64_t>& limits, const BeamSettings& settings,
                                   const BeamTokens& tokens, const torch::Device& device,
                                   bool keep_tree);

/// GNMT's length normalisation of a log-probability over `length` tokens.
double lengthNormalised(double log_prob, int64_t length, double alpha);

}  // namespace ascope
