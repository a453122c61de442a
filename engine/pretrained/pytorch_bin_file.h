#pragma once
// pytorch_model.bin: a state dict that torch.save wrote, read with LibTorch's own unpickler (which
// rebuilds tensors and never runs Python code). It reads the zip archives torch.save has written
// since PyTorch 1.6 holding a plain dict of tensors, as transformers' save_pretrained writes; it
// refuses the older non-zip format and pickles of other objects, and so does this reader, with a
// message saying to convert the file to safetensors.
#include <string>

#include "engine/pretrained/tensor_map_loader.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Every tensor of the state dict in `path`, floating-point ones as float32, on the CPU.
Expected<TensorMap> readPytorchBin(const std::string& path);

}  // namespace ascope
