#include "engine/datasets/imdb_csv_reader.h"

#include <algorithm>
#include <cstddef>

#include "engine/core/csv_reader.h"
#include "engine/core/file_bytes.h"
#include "engine/core/printable_text.h"
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

/// A label as a person would read it, shortened and made printable.
std::string quoteForMessage(std::string_view text) {
  return "\"" + printableText(text, 60) + "\"";
}

/// The header's columns, named only where they look like column names (letters, digits, _ and -,
/// at most 32 each, up to 8 of them): the file may not be a CSV at all, and whatever it holds is
/// not repeated in a message (a run's config.json naming /etc/passwd as its data had
/// its first line echoed).
std::string describeHeader(const std::vector<std::string>& header) {
  constexpr std::size_t kShownColumns = 8;
  const bool names =
      header.size() <= kShownColumns &&
      std::all_of(header.begin(), header.end(), [](const std::string& h) {
        return !h.empty() && h.size() <= 32 &&
               h.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_- ") == std::string::npos;
      });
  const std::string count =
      std::to_string(header.size()) + (header.size() == 1 ? " column" : " columns");
  if (!names) return "has " + count + ", none of them named text,label or review,sentiment";
  std::string list;
  for (const std::string& h : header) list += (list.empty() ? "" : ",") + h;
  return "has the " + count + " " + list + ", neither text,label nor review,sentiment";
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
    return Error{name + ": line 1, the header, " + describeHeader(header) +
                 " (a CSV of reviews has a header such as text,label)"};
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
