#pragma once
// Reads the Hugging Face fixtures of tests/fixtures/hf (written by
// scripts/generate_hf_fixtures.py) for the BERT and ViT parity tests, and the max-abs-diff
// comparison they report.
#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>

#include "engine/pretrained/safetensors_file.h"
#include "engine/pretrained/tensor_map_loader.h"
#include "test_paths.h"

namespace ascope::hf_fixture {

inline std::string folder(const std::string& model) {
  return std::string(test_paths::fixturesDir()) + "/hf/" + model;
}

/// The tensors of a safetensors file as float32, read through SafetensorsFile, leaving out those
/// `skip` names (BERT's integer position_ids buffer, which the reader does not convert and the
/// model does not use); fails the test (and returns what it could read) on any error.
inline TensorMap readSafetensors(const std::string& path,
                                 const std::function<bool(const std::string&)>& skip = {}) {
  auto file = SafetensorsFile::open(path);
  if (!file) {
    ADD_FAILURE() << file.error();
    return {};
  }
  TensorMap tensors;
  for (const SafetensorsEntry& entry : file->entries()) {
    if (skip && skip(entry.name)) continue;
    auto tensor = file->tensor(entry.name);
    if (!tensor) {
      ADD_FAILURE() << tensor.error();
      continue;
    }
    tensors[entry.name] = *tensor;
  }
  return tensors;
}

/// The reference tensor `name`, or a failed test and an undefined tensor.
inline at::Tensor reference(const TensorMap& tensors, const std::string& name) {
  const auto it = tensors.find(name);
  if (it == tensors.end()) {
    ADD_FAILURE() << "reference.safetensors has no " << name;
    return {};
  }
  return it->second;
}

/// max |ours − theirs|; infinity when the shapes differ.
inline double maxAbsDiff(const at::Tensor& ours, const at::Tensor& theirs) {
  if (!ours.defined() || !theirs.defined() || ours.sizes() != theirs.sizes()) {
    ADD_FAILURE() << "shapes differ: " << (ours.defined() ? ours.sizes() : at::IntArrayRef{})
                  << " vs " << (theirs.defined() ? theirs.sizes() : at::IntArrayRef{});
    return std::numeric_limits<double>::infinity();
  }
  return (ours.to(at::kDouble) - theirs.to(at::kDouble)).abs().max().item<double>();
}

}  // namespace ascope::hf_fixture
