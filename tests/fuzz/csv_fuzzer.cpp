// CsvReader and ImdbCsvReader on arbitrary bytes: every record must move forward through the input,
// and every review handed on must be valid UTF-8 with a 0/1 label.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/core/csv_reader.h"
#include "engine/datasets/imdb_csv_reader.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  ascope::CsvReader reader(bytes);
  ascope::CsvRecord record;
  std::size_t records = 0;
  std::size_t last_line = 0;
  while (reader.next(record)) {
    check(!record.fields.empty());
    check(record.line > last_line || records == 0);
    last_line = record.line;
    check(++records <= size + 1);  // each record consumes at least one byte
  }

  auto loaded = ascope::ImdbCsvReader::parse(bytes, "fuzz.csv");
  if (loaded.ok()) {
    check(!loaded->dataset.empty());
    for (const auto& sample : loaded->dataset) {
      check(sample.label == 0 || sample.label == 1);
      ascope::fuzz::checkUtf8(sample.text);
    }
    for (const auto& warning : loaded->warnings) check(warning.rfind("fuzz.csv: ", 0) == 0);
  } else {
    check(loaded.error().rfind("fuzz.csv: ", 0) == 0);
  }
  return 0;
}
