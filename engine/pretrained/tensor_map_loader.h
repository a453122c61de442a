#pragma once
// Copies a checkpoint's named tensors (a Hugging Face state_dict, read from model.safetensors)
// into a model's parameters, under the model's own parameter names, collecting every problem
// instead of stopping at the first: a missing tensor, a tensor of the wrong shape or kind, one
// holding NaN or infinite values, and at the end every tensor nothing asked for.
#include <ATen/ATen.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Checkpoint tensors by name, e.g. "bert.encoder.layer.0.attention.self.query.weight".
using TensorMap = std::map<std::string, at::Tensor>;

class TensorMapLoader {
 public:
  /// `source` names the checkpoint in messages ("tiny_bert/model.safetensors").
  TensorMapLoader(const TensorMap& tensors, std::string source);

  /// Copies tensor `name` into `target`, converting its dtype and device; the shapes must be
  /// equal.
  void copy(const std::string& name, const at::Tensor& target);

  /// Copies tensor `name`, whose shape in the checkpoint must be `stored_shape`, into `target`
  /// of the same number of elements (a (1, N, D) table into an (N, D) one).
  void copyReshaped(const std::string& name, at::IntArrayRef stored_shape,
                    const at::Tensor& target);

  /// Copies the tensors `names`, concatenated along dimension 0, into `target`: separate query,
  /// key and value projections into one packed in_proj. Each must have 1/n of target's rows.
  void copyConcatenated(const std::vector<std::string>& names, const at::Tensor& target);

  /// Marks `name` as known and not needed (a buffer the model recomputes). Absent is fine.
  void skip(const std::string& name);

  /// Whether the checkpoint holds `name`, for optional tensors.
  bool contains(const std::string& name) const { return tensors_.count(name) != 0; }

  /// OK when every copy succeeded and every tensor of the checkpoint was used or skipped;
  /// otherwise one message listing the problems, each naming the tensor (and both shapes).
  Status finish() const;

 private:
  /// The checkpoint's tensor `name` after the presence and dtype checks; undefined on failure.
  at::Tensor take(const std::string& name);
  bool shapeMatches(const std::string& name, const at::Tensor& stored, at::IntArrayRef wanted);

  const TensorMap& tensors_;
  std::string source_;
  std::set<std::string> used_;
  std::vector<std::string> problems_;
};

}  // namespace ascope
