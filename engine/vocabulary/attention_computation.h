#pragma once
// One head's attention as a computation, with the model's own numbers: the layer's input rows,
// this head's Q, K and V, QKᵀ, the scale, the mask, the softmax, the weights times V, every head
// joined and the output projection. Made by the engine on its worker (engine/inference/
// attention_explanation.h); read by the Computation view, `explain`, the export and the handout.
// Plain floats: nothing here needs LibTorch.
#include <cstdint>
#include <string>
#include <vector>

namespace ascope {

/// Row-major (rows × cols) floats.
struct ComputationMatrix {
  int rows = 0;
  int cols = 0;
  std::vector<float> values;
  float at(int r, int c) const { return values[static_cast<std::size_t>(r) * cols + c]; }
  bool empty() const { return values.empty(); }
};

/// Where the positions are added to the tokens (layer 1 of a stack fed token + position): q and k
/// each split into the part that comes from the token and the part that comes from its position,
/// so that q·k = tt + tp + pt + pp. The constant terms (the projections' biases and the
/// LayerNorm's shift) travel with the token part; a LayerNorm between the sum and the attention
/// is split with the row's own mean and spread, which makes the split exact.
struct PositionSplit {
  ComputationMatrix q_tokens;     ///< [tokens × d_head]
  ComputationMatrix q_positions;  ///< [tokens × d_head]
  ComputationMatrix k_tokens;     ///< [tokens × d_head]
  ComputationMatrix k_positions;  ///< [tokens × d_head]
};

struct AttentionComputation {
  std::string task;   ///< the run's task id, or "bert" / "vit" for a pretrained model
  std::string group;  ///< the attention group: "encoder", "encoder self", "decoder self", "cross"
  int layer = 0;      ///< from 0
  int head = 0;       ///< from 0
  int heads = 0;      ///< heads of this layer
  int d_model = 0;
  int d_head = 0;
  std::int64_t step = 0;     ///< optimizer steps of the weights used
  std::string weights_file;  ///< the file the weights came from (a checkpoint, a model folder)
  int sample_index = -1;     ///< the validation sample, -1 for an asked input
  std::string input;         ///< the asked text, image file or "validation sample 3"
  bool norm_first = false;   ///< the layer's input went through LayerNorm before the attention
  double scale = 1;          ///< 1/√d_head, the factor QKᵀ is multiplied by
  /// The keys shown are keys key_offset.. of the input; keys_outside more took part in the
  /// softmax and in weights · V without being shown (a task that shows a window of its keys).
  int key_offset = 0;
  int keys_outside = 0;
  std::vector<std::string> query_labels;
  std::vector<std::string> key_labels;

  ComputationMatrix query_input;     ///< [queries × d_model] what the queries are made from
  ComputationMatrix key_input;       ///< [keys × d_model] what the keys and values are made from
  ComputationMatrix q;               ///< [queries × d_head] this head's slice of the Q projection
  ComputationMatrix k;               ///< [keys × d_head]
  ComputationMatrix v;               ///< [keys × d_head]
  ComputationMatrix logits;          ///< [queries × keys] QKᵀ
  ComputationMatrix scaled;          ///< [queries × keys] QKᵀ/√d_head
  std::vector<std::uint8_t> masked;  ///< [queries × keys] 1: the mask blocks this key
  ComputationMatrix weights;         ///< [queries × keys] softmax over each row's unmasked keys
  ComputationMatrix head_output;     ///< [queries × d_head] weights · V
  ComputationMatrix joined;          ///< [queries × d_model] every head's output side by side
  ComputationMatrix output;          ///< [queries × d_model] joined · W_Oᵀ + b_O
  bool has_position_split = false;
  PositionSplit split;

  bool isMasked(int query, int key) const {
    return !masked.empty() && masked[static_cast<std::size_t>(query) * key_labels.size() + key];
  }
};

}  // namespace ascope
