#include "engine/data/csv_reader.h"

namespace ascope {

CsvReader::CsvReader(std::string_view text, char delimiter) : text_(text), delimiter_(delimiter) {
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
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

}  // namespace ascope
