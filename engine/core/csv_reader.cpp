#include "engine/core/csv_reader.h"

#include <charconv>
#include <system_error>

namespace ascope {

CsvReader::CsvReader(std::string_view text, char delimiter, bool skip_byte_order_mark)
    : text_(text), delimiter_(delimiter) {
  if (skip_byte_order_mark && text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
}

bool CsvReader::consumeLineBreak() {
  if (pos_ >= text_.size()) return false;
  if (text_[pos_] == '\n') {
    ++pos_;
  } else if (text_[pos_] == '\r') {
    ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
  } else {
    return false;
  }
  ++line_;
  return true;
}

bool CsvReader::readField(std::string& field) {
  field.clear();
  if (pos_ < text_.size() && text_[pos_] == '"') {
    ++pos_;
    for (;;) {
      const std::size_t quote = text_.find('"', pos_);
      const std::size_t end = quote == std::string_view::npos ? text_.size() : quote;
      for (std::size_t i = pos_; i < end; ++i) {
        // A CRLF inside quotes is one line break, as is a lone CR.
        if (text_[i] == '\n' || (text_[i] == '\r' && (i + 1 >= end || text_[i + 1] != '\n'))) {
          ++line_;
        }
      }
      field.append(text_.substr(pos_, end - pos_));
      if (quote == std::string_view::npos) {
        pos_ = text_.size();
        return false;
      }
      pos_ = quote + 1;
      if (pos_ < text_.size() && text_[pos_] == '"') {
        field.push_back('"');
        ++pos_;
        continue;
      }
      break;
    }
  }
  // Unquoted text, or what follows a closing quote, up to the delimiter or the line break.
  const std::size_t start = pos_;
  while (pos_ < text_.size() && text_[pos_] != delimiter_ && text_[pos_] != '\n' &&
         text_[pos_] != '\r') {
    ++pos_;
  }
  field.append(text_.substr(start, pos_ - start));
  return true;
}

bool CsvReader::next(CsvRecord& record) {
  record.fields.clear();
  record.unterminated_quote = false;
  record.line = line_;
  if (pos_ >= text_.size()) return false;
  for (;;) {
    std::string field;
    if (!readField(field)) record.unterminated_quote = true;
    record.fields.push_back(std::move(field));
    if (pos_ < text_.size() && text_[pos_] == delimiter_) {
      ++pos_;
      continue;
    }
    consumeLineBreak();
    return true;
  }
}

Expected<std::vector<std::string>> csvFields(std::string_view line, char delimiter) {
  // CsvReader would end the record at a CR and start another with what follows, losing fields.
  if (line.find_first_of("\r\n") != std::string_view::npos) {
    return Error{"a line break within the row"};
  }
  CsvReader reader(line, delimiter, /*skip_byte_order_mark=*/false);
  CsvRecord record;
  if (!reader.next(record)) return std::vector<std::string>{std::string()};
  if (record.unterminated_quote) return Error{"a quoted field that does not close"};
  return std::move(record.fields);
}

std::optional<long long> parseCsvInteger(std::string_view field, long long min, long long max) {
  long long value = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  if (ec != std::errc() || ptr != end || value < min || value > max) return std::nullopt;
  return value;
}

}  // namespace ascope
