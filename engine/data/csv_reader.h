#pragma once
// RFC 4180 CSV over bytes in memory: fields separated by a delimiter, records by LF, CRLF or a lone
// CR; a field in double quotes may hold delimiters, line breaks and doubled quotes (""). Like
// Python's csv module it is lenient where the RFC is silent: a quote inside an unquoted field is
// kept as it is, and text after a closing quote is appended to the field. A quoted field that never
// closes runs to the end of the input and marks its record, so the caller can skip it by line.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ascope {

/// One record and the line it starts on.
struct CsvRecord {
  std::vector<std::string> fields;
  std::size_t line = 0;             ///< 1-based line of the record's first byte
  bool unterminated_quote = false;  ///< a quoted field ran to the end of the input
};

class CsvReader {
 public:
  /// Reads `text` (not copied: it must outlive the reader); a UTF-8 byte-order mark is skipped.
  explicit CsvReader(std::string_view text, char delimiter = ',');

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

}  // namespace ascope
