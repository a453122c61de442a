#pragma once

#include "widgets/attention/attention_plot_data.h"

#include <QString>

#include <vector>

namespace ascope {

/// A beam search as the Decoding dock draws it: every candidate each step weighed, linked to the
/// hypothesis it continued, and the finished hypotheses, best first, each with the attention of
/// the decoder fed that hypothesis.
struct BeamTreeData {
  enum class Fate { Kept, Finished, Pruned };
  struct Node {
    int step = 0;     ///< 0: the first token after [SOS]
    int parent = -1;  ///< index in `nodes`; -1: [SOS]
    QString token;
    double log_prob = 0;
    double score = 0;  ///< log_prob normalised for length
    Fate fate = Fate::Pruned;
  };
  struct Hypothesis {
    QString text;
    double score = 0;
    int node = -1;  ///< its last node
    SharedPlotData attention;
  };

  int width = 0;
  std::vector<Node> nodes;
  std::vector<Hypothesis> hypotheses;

  int stepCount() const;
  /// The nodes from the first step to `node`, in order.
  std::vector<int> pathTo(int node) const;
  /// The best hypothesis whose path goes through `node`; -1 when none does (a pruned node).
  int hypothesisThrough(int node) const;
};

}  // namespace ascope
