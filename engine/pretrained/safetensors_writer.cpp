#include "engine/pretrained/safetensors_writer.h"

#include <cstddef>
#include <cstdint>
#include <set>

#include "engine/core/atomic_file.h"
#include "engine/pretrained/format/safetensors_header.h"

namespace ascope {
namespace {

const char* dtypeName(torch::ScalarType type) {
  switch (type) {
    case torch::kFloat32:
      return "F32";
    case torch::kFloat16:
      return "F16";
    case torch::kBFloat16:
      return "BF16";
    default:
      return nullptr;
  }
}

/// Hands the bytes of a contiguous CPU tensor to `sink` in little-endian order.
void emitLittleEndian(const torch::Tensor& tensor, const ByteSink& sink) {
  const auto* bytes = static_cast<const unsigned char*>(tensor.data_ptr());
  const std::size_t total = tensor.numel() * tensor.element_size();
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  const std::size_t width = tensor.element_size();
  std::vector<unsigned char> swapped(total);
  for (std::size_t i = 0; i < total; ++i)
    swapped[i] = bytes[i - i % width + (width - 1 - i % width)];
  sink(swapped.data(), total);
#else
  if (total > 0) sink(bytes, total);
#endif
}

}  // namespace

Status writeSafetensors(const std::string& path,
                        const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                        const std::map<std::string, std::string>& metadata) {
  std::vector<SafetensorsEntry> entries;
  std::vector<torch::Tensor> contiguous;
  std::set<std::string> names;
  std::uint64_t offset = 0;
  for (const auto& [name, tensor] : tensors) {
    std::string what = path;
    what.append(": tensor '").append(name).append("'");
    if (name == "__metadata__") return Error{what + ": the name is reserved for metadata"};
    if (!names.insert(name).second) return Error{what + " given twice"};
    if (!tensor.defined()) return Error{what + " is undefined"};
    if (tensor.layout() != torch::kStrided) return Error{what + " is not a dense tensor"};
    const char* dtype = dtypeName(tensor.scalar_type());
    if (dtype == nullptr) {
      return Error{what + " is " + std::string(c10::toString(tensor.scalar_type())) +
                   "; safetensors files are written in F32, F16 or BF16"};
    }
    contiguous.push_back(tensor.cpu().contiguous());
    SafetensorsEntry entry;
    entry.name = name;
    entry.dtype = dtype;
    entry.element_bytes = static_cast<std::size_t>(tensor.element_size());
    entry.shape = tensor.sizes().vec();
    entry.begin = offset;
    offset += static_cast<std::uint64_t>(tensor.numel()) * entry.element_bytes;
    entry.end = offset;
    entries.push_back(std::move(entry));
  }
  const Expected<std::string> header = serializeSafetensorsHeader(entries, metadata);
  if (!header.ok()) return Error{path + ": " + header.error()};
  return writeFileAtomicallyStreamed(path, [&](const ByteSink& sink) {
    sink(header->data(), header->size());
    for (const torch::Tensor& tensor : contiguous) emitLittleEndian(tensor, sink);
  });
}

}  // namespace ascope
