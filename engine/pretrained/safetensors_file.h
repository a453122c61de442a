#pragma once
// A safetensors file (Hugging Face model weights) mapped read-only into memory: the header is
// checked once on open (engine/pretrained/format/safetensors_header.h), and each tensor is copied
// out on request as float32, so a model of hundreds of MB never sits in memory twice and the map
// can go as soon as the weights are loaded. The file must not be truncated by someone else while it
// is open: reading a page that is gone ends the process with SIGBUS, as with any mapped file.
#include <torch/types.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "engine/pretrained/format/safetensors_header.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class SafetensorsFile {
 public:
  /// Refuses what is not a regular file without opening it (a FIFO would block open()), then
  /// maps it and checks its header. Errors name `path`.
  static Expected<SafetensorsFile> open(const std::string& path);

  ~SafetensorsFile();
  SafetensorsFile(SafetensorsFile&& other) noexcept;
  SafetensorsFile& operator=(SafetensorsFile&& other) noexcept;
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;

  const std::string& path() const { return path_; }
  /// In the order of their bytes in the file.
  const std::vector<SafetensorsEntry>& entries() const { return header_.entries; }
  /// The header's "__metadata__" (e.g. {"format": "pt"}), empty when it has none.
  const std::map<std::string, std::string>& metadata() const { return header_.metadata; }
  /// nullptr when the file holds no tensor of that name.
  const SafetensorsEntry* find(const std::string& name) const;

  /// The tensor `name` as a contiguous float32 CPU tensor with memory of its own (it outlives
  /// this object). F16 and BF16 convert exactly; other dtypes are refused: "unsupported dtype I64
  /// for tensor 'x'". Safe to call from several threads at once.
  Expected<torch::Tensor> tensor(const std::string& name) const;

 private:
  SafetensorsFile(std::string path, const unsigned char* map, std::size_t map_bytes,
                  SafetensorsHeader header);
  void unmap();

  std::string path_;
  const unsigned char* map_ = nullptr;
  std::size_t map_bytes_ = 0;
  SafetensorsHeader header_;
  std::map<std::string, std::size_t> index_;  ///< name → position in header_.entries
};

}  // namespace ascope
