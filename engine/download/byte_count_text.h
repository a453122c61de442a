#pragma once
#include <cstdint>
#include <string>

namespace ascope {

/// "570 B", "69.7 kB", "440.5 MB", "1.3 GB", "1000.0 TB" (powers of 1000, as the hub shows sizes);
/// "size unknown" for a negative count.
std::string byteCountText(std::int64_t bytes);

}  // namespace ascope
