#pragma once
// One field of a CSV row as RFC 4180 writes it, for every CSV file the engine writes (the run
// folder's ablation.csv, a text data set's splits): CsvReader (csv_reader.h) reads it back as it
// was, commas, quotes and line breaks included.
#include <string>
#include <string_view>

namespace ascope {

/// `text` as it is, or in double quotes with its quotes doubled when it holds a comma, a quote or
/// a line break.
std::string csvField(std::string_view text);

}  // namespace ascope
