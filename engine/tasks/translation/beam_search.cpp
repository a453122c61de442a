#include "engine/tasks/translation/beam_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/device/copy_to_device.h"
#include "engine/device/host_read.h"

namespace ascope {
namespace {

/// A hypothesis still growing.
struct Alive {
  std::vector<int64_t> tokens;  // [SOS] first
  double log_prob = 0;
  int node = -1;
};

struct SourceBeam {
  std::vector<Alive> alive;
  BeamResult result;
  bool done = false;
};

}  // namespace

double lengthNormalised(double log_prob, int64_t length, double alpha) {
  if (alpha == 0) return log_prob;
  return log_prob / std::pow((5.0 + static_cast<double>(length)) / 6.0, alpha);
}

std::vector<BeamResult> beamSearch(const NextTokenLogProbs& next,
                                   const std::vector<int64_t>& limits, const BeamSettings& settings,
                                   const BeamTokens& tokens, const torch::Device& device,
                                   bool keep_tree) {
  const int width = std::max(1, settings.width);
  std::vector<SourceBeam> beams(limits.size());
  for (SourceBeam& b : beams) b.alive.push_back({{tokens.sos}, 0.0, -1});
  for (int step = 0;; ++step) {
    // The hypotheses of every open source, one decoder call for all of them.
    std::vector<int64_t> rows;
    std::vector<std::pair<std::size_t, std::size_t>> owner;  // (source, alive index)
    for (std::size_t s = 0; s < beams.size(); ++s) {
      if (beams[s].done) continue;
      for (std::size_t a = 0; a < beams[s].alive.size(); ++a) {
        rows.push_back(static_cast<int64_t>(s));
        owner.emplace_back(s, a);
      }
    }
    if (rows.empty()) break;
    const auto n = static_cast<int64_t>(rows.size());
    const auto length = static_cast<int64_t>(step + 1);
    torch::Tensor prefixes = torch::empty({n, length}, torch::kLong);
    auto* p = prefixes.data_ptr<int64_t>();
    for (int64_t r = 0; r < n; ++r) {
      const Alive& a = beams[owner[static_cast<std::size_t>(r)].first]
                           .alive[owner[static_cast<std::size_t>(r)].second];
      std::copy(a.tokens.begin(), a.tokens.end(), p + r * length);
    }
    const torch::Tensor log_probs = next(copyToDevice(torch::tensor(rows, torch::kLong), device),
                                         copyToDevice(prefixes, device));
    // Each hypothesis' best 2K continuations are enough: at most K of them can be kept alive
    // and the rest (finished or pruned) are what the tree shows beside them.
    const int64_t k = std::min<int64_t>(2 * width, log_probs.size(1));
    const auto [values, ids] = log_probs.to(torch::kDouble).topk(k, 1);
    const torch::Tensor host_values = copyToHost(values), host_ids = copyToHost(ids);
    const auto value = host_values.accessor<double, 2>();
    const auto id = host_ids.accessor<int64_t, 2>();

    struct Candidate {
      std::size_t alive;
      int64_t token;
      double log_prob;
    };
    std::size_t r = 0;
    for (std::size_t s = 0; s < beams.size(); ++s) {
      SourceBeam& beam = beams[s];
      if (beam.done) continue;
      std::vector<Candidate> candidates;
      for (std::size_t a = 0; a < beam.alive.size(); ++a, ++r) {
        for (int64_t c = 0; c < k; ++c) {
          if (!std::isfinite(value[static_cast<int64_t>(r)][c])) continue;
          candidates.push_back({a, id[static_cast<int64_t>(r)][c],
                                beam.alive[a].log_prob + value[static_cast<int64_t>(r)][c]});
        }
      }
      std::stable_sort(
          candidates.begin(), candidates.end(),
          [](const Candidate& x, const Candidate& y) { return x.log_prob > y.log_prob; });
      const bool at_limit = length >= limits[s];
      std::vector<Alive> kept;
      for (const Candidate& c : candidates) {
        const Alive& parent = beam.alive[c.alive];
        const bool ends = c.token == tokens.eos || at_limit;
        const int64_t said = length;  // tokens said with this one, [EOS] included
        BeamNode node{step,
                      parent.node,
                      c.token,
                      c.log_prob,
                      lengthNormalised(c.log_prob, said, settings.length_alpha),
                      BeamNode::Fate::kPruned};
        // Only what would still rank among the best K is taken; the rest are pruned.
        const bool room = static_cast<int>(kept.size()) < width &&
                          static_cast<int>(beam.result.finished.size()) < width;
        if (room && ends) node.fate = BeamNode::Fate::kFinished;
        if (room && !ends) node.fate = BeamNode::Fate::kKept;
        int index = -1;
        if (keep_tree || node.fate != BeamNode::Fate::kPruned) {
          index = static_cast<int>(beam.result.nodes.size());
          beam.result.nodes.push_back(node);
        }
        if (node.fate == BeamNode::Fate::kFinished) {
          BeamHypothesis h;
          h.tokens.assign(parent.tokens.begin() + 1, parent.tokens.end());
          if (c.token != tokens.eos) h.tokens.push_back(c.token);
          h.log_prob = c.log_prob;
          h.score = node.score;
          h.node = index;
          beam.result.finished.push_back(std::move(h));
        } else if (node.fate == BeamNode::Fate::kKept) {
          Alive next_alive{parent.tokens, c.log_prob, index};
          next_alive.tokens.push_back(c.token);
          kept.push_back(std::move(next_alive));
        }
      }
      beam.alive = std::move(kept);
      // Done: K finished, nothing alive, or no hypothesis alive can still beat the best finished
      // one (its log-probability only falls; at the length limit its penalty is the largest).
      bool done = beam.alive.empty() || static_cast<int>(beam.result.finished.size()) >= width;
      if (!done && !beam.result.finished.empty()) {
        double best = -std::numeric_limits<double>::infinity();
        for (const BeamHypothesis& h : beam.result.finished) best = std::max(best, h.score);
        const double hope =
            lengthNormalised(beam.alive.front().log_prob, limits[s], settings.length_alpha);
        done = settings.length_alpha <= 1.0 && hope < best;
      }
      beam.done = done;
    }
  }
  std::vector<BeamResult> out;
  out.reserve(beams.size());
  for (SourceBeam& b : beams) {
    std::stable_sort(
        b.result.finished.begin(), b.result.finished.end(),
        [](const BeamHypothesis& x, const BeamHypothesis& y) { return x.score > y.score; });
    out.push_back(std::move(b.result));
  }
  return out;
}

}  // namespace ascope
