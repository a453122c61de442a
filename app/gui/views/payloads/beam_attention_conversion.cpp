// BeamPayload on the attention panel's data: the beam search as the Decoding dock draws it, each
// hypothesis' attention converted too.
#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/views/payloads/attention_payload_conversions.h"
#include "engine/vocabulary/beam_payload.h"
#include "widgets/decoding/beam_tree_data.h"

namespace ascope {
namespace {

BeamTreeData toBeamTreeData(const BeamPayload& beam) {
  BeamTreeData tree;
  tree.width = beam.width;
  for (const BeamPayload::Node& n : beam.nodes) {
    BeamTreeData::Node node;
    node.step = n.step;
    node.parent = n.parent;
    node.token = QString::fromStdString(n.token);
    node.log_prob = n.log_prob;
    node.score = n.score;
    node.fate = n.fate == BeamPayload::Fate::kKept       ? BeamTreeData::Fate::Kept
                : n.fate == BeamPayload::Fate::kFinished ? BeamTreeData::Fate::Finished
                                                         : BeamTreeData::Fate::Pruned;
    tree.nodes.push_back(std::move(node));
  }
  for (const BeamPayload::Hypothesis& h : beam.hypotheses) {
    tree.hypotheses.push_back(
        {QString::fromStdString(h.text), h.score, h.node,
         std::make_shared<const AttentionPlotData>(toAttentionPlotData(h.attention))});
  }
  return tree;
}

}  // namespace

AttentionPayloadConversion beamAttentionConversion() {
  return {BeamPayload::kKind, [](AttentionPlotData& data, const Payload& payload) {
            data.beam = std::make_shared<const BeamTreeData>(
                toBeamTreeData(static_cast<const BeamPayload&>(payload)));
          }};
}

}  // namespace ascope
