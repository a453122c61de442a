#include "engine/pretrained/pytorch_bin_file.h"

#include <torch/csrc/jit/serialization/pickle.h>

#include <cstdint>
#include <exception>
#include <fstream>
#include <iterator>
#include <vector>

#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"
#include "engine/core/zip_checksums.h"

namespace ascope {
namespace {

Error unreadable(const std::string& path, const std::string& why) {
  return Error{path + ": cannot be read (" + why +
               "); convert it to model.safetensors, e.g. in Python: "
               "AutoModel.from_pretrained(FOLDER).save_pretrained(FOLDER, "
               "safe_serialization=True)"};
}

// LibTorch's unpickler turns collections.OrderedDict into None (it expects one only as a tensor's
// empty backward hooks), so the OrderedDict that torch.save(model.state_dict()) pickles comes out
// as None, and its items fail to go into it.
const char kOrderedDict[] =
    "an OrderedDict, as torch.save(model.state_dict()) writes it, which LibTorch's unpickler "
    "does not read (transformers' save_pretrained writes a plain dict)";

}  // namespace

Expected<TensorMap> readPytorchBin(const std::string& path) {
  // A FIFO or a device would block or never end: regular files only, as for every model file.
  Expected<std::string> bytes = readRegularFile(path, UINT64_MAX);
  if (!bytes.ok()) return Error{bytes.error()};
  // torch.save's zip archives start like every zip file; its pre-1.6 format is a bare pickle.
  if (bytes->size() < 4 || bytes->compare(0, 4, "PK\x03\x04") != 0) {
    return unreadable(path,
                      "not a zip archive: the legacy torch.save format, or not a "
                      "PyTorch file at all");
  }
  // LibTorch's unpickler reads records without their CRC-32: flipped bytes would load as weights.
  // A damaged file is not a format to convert: the file itself has to come again.
  if (Status s = verifyZipChecksums(*bytes, path); !s.ok()) {
    return Error{s.error() + "; download or copy it again"};
  }
  c10::IValue value;
  try {
    const std::vector<char> data(bytes->begin(), bytes->end());
    bytes->clear();
    bytes->shrink_to_fit();
    value = torch::jit::pickle_load(data);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.find("Expected GenericDict but got None") != std::string::npos) {
      return unreadable(path, kOrderedDict);
    }
    return unreadable(path, "LibTorch's unpickler: " + firstLine(what));
  }
  if (value.isNone()) return unreadable(path, kOrderedDict);
  if (!value.isGenericDict()) {
    return unreadable(
        path, "it holds a " + std::string(value.tagKind()) + ", not a plain dict of tensors");
  }
  TensorMap tensors;
  for (const auto& entry : value.toGenericDict()) {
    if (!entry.key().isString() || !entry.value().isTensor()) {
      return unreadable(path, "an entry of the dict is not a name and a tensor");
    }
    at::Tensor t = entry.value().toTensor();
    if (t.is_floating_point()) t = t.to(at::kFloat);
    tensors.emplace(entry.key().toStringRef(), t.contiguous());
  }
  return tensors;
}

}  // namespace ascope
