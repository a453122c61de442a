#pragma once
// RFC 4180 CSV over bytes in memory: fields separated by a delimiter, records by LF, CRLF or a lone
// CR; a field in double quotes may hold delimiters, line breaks and doubled quotes (""). Like
// Python's csv module it is lenient where the RFC is silent: a quote inside an unquoted field is
// kept as it is, and text after a closing quote is appended to the field. A quoted field that never
// closes runs to the end of the input and marks its record, so the caller can skip it by line.
// csvFields splits one line with it, for the run folder's files, which are read line by line.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// One record and the line it starts on.
struct CsvRecord {
  std::vector<std::string> fields;
  std::size_t line = 0;             ///< 1-based line of the record's first byte
  bool unterminated_quote = false;  ///< a quoted field ran to the end of the input
};

class CsvReader {
 public:
  /// Reads `text` (not copied: it must outlive the reader). A UTF-8 byte-order mark at its start
  /// is skipped unless `skip_byte_order_mark` is false (text that is one line, not a whole file).
  explicit CsvReader(std::string_view text, char delimiter = ',', bool skip_byte_order_mark = true);

  /// Reads the next record into `record`; false at the end of the input.
  bool next(CsvRecord& record);

 private:
  /// Reads one field at pos_ into `field`; false when its quote never closes.
  bool readField(std::string& field);
  /// Consumes a line break at pos_ if there is one.
  bool consumeLineBreak();

  std::string_view text_;
  char delimiter_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

/// The fields of `line`, one line of a file already split into lines (splitLines), read as one
/// record by CsvReader: quoted fields lose their quotes; a line without quotes splits at every
/// delimiter. An empty line is one empty field, and a byte-order mark is the first field's bytes
/// (it marks the start of a file, not of a line). Errors: a line break (CR or LF) in the line, a
/// quoted field that does not close.
Expected<std::vector<std::string>> csvFields(std::string_view line, char delimiter = ',');

/// The whole field as an integer in [min, max]: decimal digits after an optional '-', no '+', no
/// spaces, as a writer writes one (std::from_chars, which ignores the locale); nullopt otherwise.
std::optional<long long> parseCsvInteger(std::string_view field, long long min, long long max);

}  // namespace ascope
