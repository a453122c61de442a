#include "engine/pretrained/safetensors_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string_view>
#include <utility>

#include "engine/core/half_float.h"
#include "engine/core/regular_file.h"

namespace ascope {
namespace {

std::uint32_t loadLittleEndian32(const unsigned char* bytes) {
  return static_cast<std::uint32_t>(bytes[0]) | static_cast<std::uint32_t>(bytes[1]) << 8 |
         static_cast<std::uint32_t>(bytes[2]) << 16 | static_cast<std::uint32_t>(bytes[3]) << 24;
}

std::uint16_t loadLittleEndian16(const unsigned char* bytes) {
  return static_cast<std::uint16_t>(bytes[0] | bytes[1] << 8);
}

float floatFromBits(std::uint32_t bits) {
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Decodes `count` elements of `dtype` (F32, F16 or BF16) into float32. Bytes are assembled in
/// little-endian order whatever the host's, so the file reads the same everywhere.
void decodeToFloat(const std::string& dtype, const unsigned char* bytes, std::int64_t count,
                   float* out) {
  if (dtype == "F32") {
    for (std::int64_t i = 0; i < count; ++i)
      out[i] = floatFromBits(loadLittleEndian32(bytes + 4 * i));
  } else if (dtype == "F16") {
    for (std::int64_t i = 0; i < count; ++i)
      out[i] = halfToFloat(loadLittleEndian16(bytes + 2 * i));
  } else {
    // bfloat16 is the top half of a float32: widening is a shift, exact for every value.
    for (std::int64_t i = 0; i < count; ++i) {
      out[i] = floatFromBits(static_cast<std::uint32_t>(loadLittleEndian16(bytes + 2 * i)) << 16);
    }
  }
}

bool loads(const std::string& dtype) {
  return dtype == "F32" || dtype == "F16" || dtype == "BF16";
}

/// The descriptor of the file being opened, closed on every way out of open(): the map stays
/// valid without it.
class OpenDescriptor {
 public:
  explicit OpenDescriptor(int fd) : fd_(fd) {}
  ~OpenDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  OpenDescriptor(const OpenDescriptor&) = delete;
  OpenDescriptor& operator=(const OpenDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Expected<SafetensorsFile> SafetensorsFile::open(const std::string& path) {
  if (Status s = requireRegularFile(path); !s.ok()) return Error{s.error()};
  // O_NONBLOCK: should the path turn into a FIFO after the check, open() still returns at once
  // and the fstat() below refuses it.
  const OpenDescriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    return Error{path + ": cannot read its size: " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return Error{path + " is not a regular file"};
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size < kSafetensorsLengthBytes) {
    // Too short to map usefully (and mmap refuses 0 bytes): the parser words the error.
    return Error{parseSafetensorsHeader({}, size, path).error()};
  }
  void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (map == MAP_FAILED) return Error{path + ": cannot map into memory: " + std::strerror(errno)};
  const auto* bytes = static_cast<const unsigned char*>(map);
  auto header = parseSafetensorsHeader(
      std::string_view(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size)), size,
      path);
  if (!header.ok()) {
    ::munmap(map, static_cast<std::size_t>(size));
    return Error{header.error()};
  }
  return SafetensorsFile(path, bytes, static_cast<std::size_t>(size), std::move(*header));
}

SafetensorsFile::SafetensorsFile(std::string path, const unsigned char* map, std::size_t map_bytes,
                                 SafetensorsHeader header)
    : path_(std::move(path)), map_(map), map_bytes_(map_bytes), header_(std::move(header)) {
  for (std::size_t i = 0; i < header_.entries.size(); ++i)
    index_.emplace(header_.entries[i].name, i);
}

SafetensorsFile::~SafetensorsFile() {
  unmap();
}

SafetensorsFile::SafetensorsFile(SafetensorsFile&& other) noexcept
    : path_(std::move(other.path_)),
      map_(std::exchange(other.map_, nullptr)),
      map_bytes_(std::exchange(other.map_bytes_, 0)),
      header_(std::move(other.header_)),
      index_(std::move(other.index_)) {}

SafetensorsFile& SafetensorsFile::operator=(SafetensorsFile&& other) noexcept {
  if (this != &other) {
    unmap();
    path_ = std::move(other.path_);
    map_ = std::exchange(other.map_, nullptr);
    map_bytes_ = std::exchange(other.map_bytes_, 0);
    header_ = std::move(other.header_);
    index_ = std::move(other.index_);
  }
  return *this;
}

void SafetensorsFile::unmap() {
  if (map_ != nullptr) ::munmap(const_cast<unsigned char*>(map_), map_bytes_);
  map_ = nullptr;
  map_bytes_ = 0;
}

const SafetensorsEntry* SafetensorsFile::find(const std::string& name) const {
  const auto found = index_.find(name);
  return found == index_.end() ? nullptr : &header_.entries[found->second];
}

Expected<torch::Tensor> SafetensorsFile::tensor(const std::string& name) const {
  const SafetensorsEntry* entry = find(name);
  if (entry == nullptr) return Error{path_ + ": no tensor named '" + name + "'"};
  if (!loads(entry->dtype)) {
    return Error{path_ + ": unsupported dtype " + entry->dtype + " for tensor '" + name +
                 "' (F32, F16 and BF16 load)"};
  }
  torch::Tensor values;
  try {
    values = torch::empty(entry->shape, torch::kFloat32);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{path_ + ": cannot allocate tensor '" + name +
                 "': " + what.substr(0, what.find('\n'))};
  }
  decodeToFloat(entry->dtype, map_ + header_.data_start + entry->begin, entry->elementCount(),
                values.data_ptr<float>());
  return values;
}

}  // namespace ascope
