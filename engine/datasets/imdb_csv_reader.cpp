#include "engine/datasets/imdb_csv_reader.h"

#include <algorithm>
#include <cstddef>

#include "engine/core/csv_reader.h"
#include "engine/core/file_bytes.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/record_tally.h"
#include "engine/text/unicode/utf8_repair.h"
#include "engine/text/words/review_text.h"

namespace ascope {
namespace {

std::string lowerTrimmed(std::string_view text) {
  return lowerAscii(trimSpace(text));
}

/// 0 or 1, or -1 for a label we do not know.
int parseLabel(std::string_view field) {
  const std::string label = lowerTrimmed(field);
  if (label == "0" || label == "negative" || label == "neg") return 0;
  if (label == "1" || label == "positive" || label == "pos") return 1;
  return -1;
}

/// The header as a person would read it, shortened and made printable.
std::string quoteForMessage(std::string_view text) {
  constexpr std::size_t kMax = 60;
  std::string shown = repairUtf8(text.substr(0, kMax));
  for (char& c : shown) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return "\"" + shown + (text.size() > kMax ? "…\"" : "\"");
}

}  // namespace

Expected<Loaded<std::vector<TextSample>>> ImdbCsvReader::parse(std::string_view bytes,
                                                               const std::string& name) {
  if (trimSpace(bytes).empty()) return Error{name + ": file is empty"};
  CsvReader reader(bytes);
  CsvRecord record;
  reader.next(record);
  std::vector<std::string> header;
  for (const auto& field : record.fields) header.push_back(lowerTrimmed(field));
  const auto column = [&](const char* wanted) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), wanted) -
                                    header.begin());
  };
  std::size_t text_column = column("text");
  std::size_t label_column = column("label");
  if (text_column == header.size() || label_column == header.size()) {
    text_column = column("review");
    label_column = column("sentiment");
  }
  if (text_column == header.size() || label_column == header.size()) {
    const std::size_t header_end = std::min(bytes.find_first_of("\r\n"), bytes.size());
    return Error{name + ": line 1: header " + quoteForMessage(bytes.substr(0, header_end)) +
                 " has neither text,label nor review,sentiment columns"};
  }
  const std::size_t needed = std::max(text_column, label_column) + 1;

  Loaded<std::vector<TextSample>> loaded;
  RecordTally missing_column("rows skipped for a missing column");
  RecordTally unknown_label("rows skipped for an unknown label (not 0/1 or negative/positive)");
  RecordTally empty_text("rows skipped for an empty text");
  RecordTally unterminated("rows skipped for a quote that never closes");
  RecordTally invalid_utf8("invalid UTF-8 sequences replaced by U+FFFD");
  while (reader.next(record)) {
    const std::string where = "line " + std::to_string(record.line);
    if (record.unterminated_quote) {
      unterminated.add(where);
      continue;
    }
    if (record.fields.size() == 1 && trimSpace(record.fields[0]).empty()) continue;  // blank line
    if (record.fields.size() < needed) {
      missing_column.add(where);
      continue;
    }
    const int label = parseLabel(record.fields[label_column]);
    if (label < 0) {
      unknown_label.add(where + " " + quoteForMessage(record.fields[label_column]));
      continue;
    }
    std::size_t replaced = 0;
    std::string text = cleanReviewText(record.fields[text_column], replaced);
    invalid_utf8.add(where, replaced);
    if (trimSpace(text).empty()) {
      empty_text.add(where);
      continue;
    }
    loaded.dataset.push_back(TextSample{std::move(text), label});
  }
  for (const RecordTally* tally : {&missing_column, &unknown_label, &empty_text, &unterminated}) {
    tally->appendWarning(name, loaded.warnings);
  }
  if (loaded.dataset.empty()) {
    return Error{withWarnings(name + ": no valid rows after the header", name, loaded.warnings)};
  }
  invalid_utf8.appendWarning(name, loaded.warnings);
  return loaded;
}

Expected<Loaded<std::vector<TextSample>>> ImdbCsvReader::read(const std::string& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return Error{bytes.error()};
  return parse(*bytes, path);
}

}  // namespace ascope
