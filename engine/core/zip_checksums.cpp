#include "engine/core/zip_checksums.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <functional>
#include <system_error>
#include <vector>

#include "engine/core/regular_file.h"

namespace ascope {
namespace {

// Own table-driven CRC-32 (slicing by 8) rather than zlib's: the GPU server's build has LibTorch
// and header-only libraries only, and the check must run there too.
using CrcTables = std::array<std::array<std::uint32_t, 256>, 8>;

CrcTables makeCrcTables() {
  CrcTables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t i = 0; i < 256; ++i) {
    for (std::size_t k = 1; k < 8; ++k) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFU];
  }
  return t;
}

const CrcTables& crcTables() {
  static const CrcTables tables = makeCrcTables();
  return tables;
}

constexpr std::uint32_t kEndOfCentralDirectory = 0x06054b50;
constexpr std::uint32_t kZip64EndLocator = 0x07064b50;
constexpr std::uint32_t kZip64End = 0x06064b50;
constexpr std::uint32_t kCentralHeader = 0x02014b50;
constexpr std::uint32_t kLocalHeader = 0x04034b50;
constexpr std::size_t kEndRecordBytes = 22;
constexpr std::size_t kCentralHeaderBytes = 46;
constexpr std::size_t kLocalHeaderBytes = 30;
constexpr std::uint64_t kMaxRecords = 1U << 20;  // a BERT checkpoint has a few hundred
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

std::uint16_t u16(const unsigned char* p) {
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}
std::uint32_t u32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
std::uint64_t u64(const unsigned char* p) {
  return static_cast<std::uint64_t>(u32(p)) | (static_cast<std::uint64_t>(u32(p + 4)) << 32);
}

/// A tensor's bytes: "<archive>/data/<key>", as torch.save and LibTorch name them.
bool isTensorRecord(const std::string& name) {
  const std::size_t slash = name.find('/');
  return slash != std::string::npos && name.compare(slash + 1, 5, "data/") == 0;
}

/// Reads `size` bytes at `offset` into `out`; false when the archive is shorter.
using ReadAt = std::function<Status(std::uint64_t offset, std::size_t size, unsigned char* out)>;

class ZipWalk {
 public:
  ZipWalk(std::uint64_t size, ReadAt read, std::string name)
      : size_(size), read_(std::move(read)), name_(std::move(name)) {}

  Status run() {
    if (Status s = findCentralDirectory(); !s.ok()) return s;
    std::uint64_t at = directory_offset_;
    const std::uint64_t end = directory_offset_ + directory_size_;
    for (std::uint64_t i = 0; i < records_; ++i) {
      if (Status s = checkRecord(&at, end); !s.ok()) return s;
    }
    return {};
  }

 private:
  Error broken(const std::string& why) const {
    return Error{name_ + " is not a complete zip archive (" + why +
                 "): cut short or damaged; a checkpoint or model file must be one"};
  }
  Error damaged(const std::string& record, const std::string& why) const {
    return Error{name_ + " is damaged: record \"" + record + "\" " + why +
                 " (the file changed after it was written: a disk or copy error, or an edit)"};
  }

  Status read(std::uint64_t offset, std::size_t size, unsigned char* out) const {
    if (offset > size_ || size > size_ - offset) {
      return broken("a record points past the end of the file");
    }
    return read_(offset, size, out);
  }

  Status findCentralDirectory() {
    if (size_ < kEndRecordBytes) return broken("shorter than an end record");
    // The end record is last, followed only by a comment of at most 65535 bytes.
    const std::size_t tail = static_cast<std::size_t>(std::min<std::uint64_t>(size_, 65535 + 22));
    std::vector<unsigned char> bytes(tail);
    if (Status s = read(size_ - tail, tail, bytes.data()); !s.ok()) return s;
    std::size_t found = tail;
    for (std::size_t i = tail - kEndRecordBytes + 1; i-- > 0;) {
      if (u32(&bytes[i]) == kEndOfCentralDirectory) {
        found = i;
        break;
      }
    }
    if (found == tail) return broken("no end-of-central-directory record");
    const unsigned char* end = &bytes[found];
    records_ = u16(end + 10);
    directory_size_ = u32(end + 12);
    directory_offset_ = u32(end + 16);
    const std::uint64_t end_at = size_ - tail + found;
    if (records_ == 0xFFFF || directory_size_ == 0xFFFFFFFFU || directory_offset_ == 0xFFFFFFFFU) {
      if (Status s = readZip64End(end_at); !s.ok()) return s;
    }
    if (records_ > kMaxRecords) return broken(std::to_string(records_) + " records");
    if (directory_offset_ > size_ || directory_size_ > size_ - directory_offset_) {
      return broken("the central directory lies past the end of the file");
    }
    return {};
  }

  Status readZip64End(std::uint64_t end_at) {
    if (end_at < 20) return broken("no zip64 end locator");
    unsigned char locator[20];
    if (Status s = read(end_at - 20, sizeof locator, locator); !s.ok()) return s;
    if (u32(locator) != kZip64EndLocator) return broken("no zip64 end locator");
    const std::uint64_t at = u64(locator + 8);
    unsigned char end[56];
    if (Status s = read(at, sizeof end, end); !s.ok()) return s;
    if (u32(end) != kZip64End) return broken("no zip64 end record");
    records_ = u64(end + 32);
    directory_size_ = u64(end + 40);
    directory_offset_ = u64(end + 48);
    return {};
  }

  Status checkRecord(std::uint64_t* at, std::uint64_t end) {
    unsigned char header[kCentralHeaderBytes];
    if (*at > end || end - *at < kCentralHeaderBytes) return broken("central directory cut short");
    if (Status s = read(*at, sizeof header, header); !s.ok()) return s;
    if (u32(header) != kCentralHeader) return broken("central directory entry without signature");
    const std::uint16_t method = u16(header + 10);
    const std::uint32_t crc = u32(header + 16);
    std::uint64_t stored_size = u32(header + 20);
    std::uint64_t size = u32(header + 24);
    const std::size_t name_length = u16(header + 28);
    const std::size_t extra_length = u16(header + 30);
    const std::size_t comment_length = u16(header + 32);
    std::uint64_t local = u32(header + 42);
    const std::uint64_t entry_bytes =
        kCentralHeaderBytes + name_length + extra_length + comment_length;
    if (end - *at < entry_bytes) return broken("central directory cut short");
    std::vector<unsigned char> variable(name_length + extra_length);
    if (Status s = read(*at + kCentralHeaderBytes, variable.size(), variable.data()); !s.ok()) {
      return s;
    }
    *at += entry_bytes;
    const std::string name(variable.begin(), variable.begin() + static_cast<long>(name_length));
    // zip64: the sizes and offset that do not fit 32 bits follow in extra field 0x0001, in order.
    for (std::size_t e = name_length; e + 4 <= variable.size();) {
      const std::uint16_t id = u16(&variable[e]);
      const std::size_t length = u16(&variable[e + 2]);
      std::size_t field = e + 4;
      e = field + length;
      if (id != 0x0001 || e > variable.size()) continue;
      for (std::uint64_t* value : {&size, &stored_size, &local}) {
        if (*value != 0xFFFFFFFFU) continue;
        if (field + 8 > e) return broken("zip64 sizes of \"" + name + "\" cut short");
        *value = u64(&variable[field]);
        field += 8;
      }
    }
    const bool deflated = method == 8;
    if ((method != 0 && !deflated) || (deflated && isTensorRecord(name))) {
      return damaged(name, "is compressed (method " + std::to_string(method) +
                               "), which torch.save and LibTorch never write for tensors");
    }
    if (!deflated && stored_size != size) return damaged(name, "has two different sizes");
    unsigned char local_header[kLocalHeaderBytes];
    if (Status s = read(local, sizeof local_header, local_header); !s.ok()) return s;
    if (u32(local_header) != kLocalHeader) return damaged(name, "has no local header");
    const std::uint64_t data =
        local + kLocalHeaderBytes + u16(local_header + 26) + u16(local_header + 28);
    if (data > size_ || stored_size > size_ - data) {
      return damaged(name, "runs past the end of the file");
    }
    // LibTorch deflates the TorchScript text it writes beside the weights (archive/code/*.py),
    // and its inflater refuses most damage there; checking that CRC would need an inflater of our
    // own (the GPU server's build has no zlib). The weights themselves are always stored.
    if (deflated) return {};
    std::vector<unsigned char> chunk(
        static_cast<std::size_t>(std::min<std::uint64_t>(size, kChunkBytes)));
    std::uint32_t computed = 0;
    for (std::uint64_t done = 0; done < size;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(size - done, kChunkBytes));
      if (Status s = read(data + done, n, chunk.data()); !s.ok()) return s;
      computed = crc32Update(computed, chunk.data(), n);
      done += n;
    }
    if (computed != crc) {
      char numbers[64];
      std::snprintf(numbers, sizeof numbers, " (stored %08x, computed %08x)", crc, computed);
      return damaged(name, std::string("fails its CRC-32 check") + numbers);
    }
    return {};
  }

  std::uint64_t size_;
  ReadAt read_;
  std::string name_;
  std::uint64_t records_ = 0;
  std::uint64_t directory_size_ = 0;
  std::uint64_t directory_offset_ = 0;
};

}  // namespace

std::uint32_t crc32Update(std::uint32_t crc, const void* data, std::size_t size) {
  const CrcTables& t = crcTables();
  const auto* p = static_cast<const unsigned char*>(data);
  crc = ~crc;
  while (size >= 8) {
    const std::uint32_t one = u32(p) ^ crc;
    const std::uint32_t two = u32(p + 4);
    crc = t[7][one & 0xFFU] ^ t[6][(one >> 8) & 0xFFU] ^ t[5][(one >> 16) & 0xFFU] ^
          t[4][one >> 24] ^ t[3][two & 0xFFU] ^ t[2][(two >> 8) & 0xFFU] ^
          t[1][(two >> 16) & 0xFFU] ^ t[0][two >> 24];
    p += 8;
    size -= 8;
  }
  while (size-- > 0) crc = t[0][(crc ^ *p++) & 0xFFU] ^ (crc >> 8);
  return ~crc;
}

Status verifyZipChecksums(std::string_view bytes, const std::string& name) {
  return ZipWalk(
             bytes.size(),
             [bytes](std::uint64_t offset, std::size_t size, unsigned char* out) -> Status {
               std::memcpy(out, bytes.data() + offset, size);
               return {};
             },
             name)
      .run();
}

Status verifyZipChecksums(const std::string& path) {
  if (Status s = requireRegularFile(path); !s.ok()) return s;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return Error{path +
                 ": cannot open: " + std::error_code(errno, std::generic_category()).message()};
  }
  const off_t end = ::lseek(fd, 0, SEEK_END);
  Status result;
  if (end < 0) {
    result = Error{path + ": cannot read its size"};
  } else {
    result = ZipWalk(
                 static_cast<std::uint64_t>(end),
                 [fd, &path](std::uint64_t offset, std::size_t size, unsigned char* out) -> Status {
                   std::size_t done = 0;
                   while (done < size) {
                     const ssize_t n =
                         ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
                     if (n < 0 && errno == EINTR) continue;
                     if (n <= 0) {
                       return Error{
                           path + ": read failed" +
                           (n < 0 ? ": " + std::error_code(errno, std::generic_category()).message()
                                  : std::string(" (the file was shortened)"))};
                     }
                     done += static_cast<std::size_t>(n);
                   }
                   return {};
                 },
                 path)
                 .run();
  }
  ::close(fd);
  return result;
}

}  // namespace ascope
