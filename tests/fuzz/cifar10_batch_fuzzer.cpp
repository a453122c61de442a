// Cifar10BinaryReader::parseBatch and parseClassNames on arbitrary bytes. The input is also parsed
// zero-padded to a whole number of records, so that the record loop and the label check run on most
// inputs, not only on the rare ones whose size is a multiple of 3073.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/datasets/cifar10_binary_reader.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::Cifar10BinaryReader;
  using ascope::fuzz::check;
  const std::string bytes(reinterpret_cast<const char*>(data), size);

  auto exact = Cifar10BinaryReader::parseBatch(bytes, "fuzz.bin");
  if (exact.ok()) {
    check(size > 0 && size % Cifar10BinaryReader::kRecordBytes == 0);  // never a partial record
  } else {
    check(exact.error().rfind("fuzz.bin: ", 0) == 0);
  }

  std::string padded = bytes;
  const std::size_t records = size / Cifar10BinaryReader::kRecordBytes + 1;
  padded.resize(records * Cifar10BinaryReader::kRecordBytes, '\0');
  auto samples = Cifar10BinaryReader::parseBatch(padded, "padded.bin");
  if (samples.ok()) {
    check(samples->size() == records);
    for (const auto& sample : *samples) {
      check(sample.label >= 0 && sample.label <= 9);
      check(sample.pixels.size() == Cifar10BinaryReader::kPixelBytes);
    }
  } else {
    check(samples.error().find("has label") != std::string::npos);
  }

  auto names = Cifar10BinaryReader::parseClassNames(bytes, "batches.meta.txt");
  if (names.ok()) {
    check(names->size() == 10);
    for (const auto& name : *names) {
      check(!name.empty());
      ascope::fuzz::checkUtf8(name);
    }
  }
  return 0;
}
