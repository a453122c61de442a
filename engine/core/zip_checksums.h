#pragma once
// Checks a zip archive's records against the CRC-32 its central directory stores. Checkpoints
// (torch::serialize) and pytorch_model.bin files are zip archives, and LibTorch's reader builds
// miniz without its CRC checks (MINIZ_DISABLE_ZIP_READER_CRC32_CHECKS): flipped bytes in a
// weight record loaded silently and answered a different label. This walk reads every
// record once, refuses anything that is not a complete archive, and names the damaged record.
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// CRC-32 (ISO-HDLC, the zip and PNG one) of `size` bytes at `data`, continuing `crc` (0 to start).
std::uint32_t crc32Update(std::uint32_t crc, const void* data, std::size_t size);

/// OK when the regular file at `path` is a complete zip archive (stored or deflated records, zip64
/// included) whose every record matches its stored CRC-32 and size. Errors name the file and the
/// record: "PATH is damaged: record \"archive/data/3\" fails its CRC-32 check …".
Status verifyZipChecksums(const std::string& path);

/// The same for an archive already in memory; `name` stands for it in messages.
Status verifyZipChecksums(std::string_view bytes, const std::string& name);

}  // namespace ascope
