#pragma once
// A translation decoded with a beam: every candidate each step weighed, as a tree (kept, finished
// or pruned), and each finished hypothesis with its own attention, so the Decoding dock can draw
// the beam and show any hypothesis' self- and cross-attention step by step. Carried from
// inference to the window only; a run folder never stores it.
// In vocabulary/, not vocabulary/payloads/: each hypothesis holds a whole AttentionSnapshot.
#include <string>
#include <vector>

#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/payloads/payload.h"

namespace ascope {

struct BeamPayload : Payload {
  static constexpr const char* kKind = "beam";
  const char* kind() const override { return kKind; }

  enum class Fate { kKept, kFinished, kPruned };
  struct Node {
    int step = 0;     ///< 0: the first token after [SOS]
    int parent = -1;  ///< index in `nodes`; -1 for [SOS]
    std::string token;
    double log_prob = 0;  ///< of the hypothesis up to and with this token
    double score = 0;     ///< log_prob normalised for length
    Fate fate = Fate::kPruned;
  };
  struct Hypothesis {
    std::string text;  ///< the translation as written
    double log_prob = 0;
    double score = 0;  ///< what the hypotheses are ranked by
    int node = -1;     ///< its last node
    /// The decoder fed this hypothesis: its attention and, per step, the candidates.
    AttentionSnapshot attention;
  };

  int width = 0;
  double length_alpha = 0;
  std::vector<Node> nodes;
  std::vector<Hypothesis> hypotheses;  ///< best first: hypotheses[0] is the translation
};

}  // namespace ascope
