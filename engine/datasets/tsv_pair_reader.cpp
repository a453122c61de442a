#include "engine/datasets/tsv_pair_reader.h"

#include "engine/core/file_bytes.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/record_tally.h"
#include "engine/text/unicode/utf8_repair.h"

namespace ascope {

Expected<Loaded<std::vector<TranslationPair>>> TsvPairReader::parse(std::string_view bytes,
                                                                    const std::string& name) {
  if (trimSpace(bytes).empty()) return Error{name + ": file is empty"};
  Loaded<std::vector<TranslationPair>> loaded;
  RecordTally one_column("lines skipped for having no TAB between source and target");
  RecordTally empty_side("lines skipped for an empty source or target");
  RecordTally invalid_utf8("invalid UTF-8 sequences replaced by U+FFFD");
  const std::vector<std::string_view> lines = splitLines(bytes);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (trimSpace(line).empty()) continue;
    const std::string where = "line " + std::to_string(i + 1);
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos) {
      one_column.add(where);
      continue;
    }
    const std::size_t second_tab = line.find('\t', tab + 1);
    const std::string_view source = trimSpace(line.substr(0, tab));
    const std::string_view target = trimSpace(
        line.substr(tab + 1, second_tab == std::string_view::npos ? std::string_view::npos
                                                                  : second_tab - tab - 1));
    if (source.empty() || target.empty()) {
      empty_side.add(where);
      continue;
    }
    std::size_t replaced = 0;
    TranslationPair pair{repairUtf8(source, &replaced), repairUtf8(target, &replaced)};
    invalid_utf8.add(where, replaced);
    loaded.dataset.push_back(std::move(pair));
  }
  one_column.appendWarning(name, loaded.warnings);
  empty_side.appendWarning(name, loaded.warnings);
  if (loaded.dataset.empty()) {
    return Error{withWarnings(name + ": no line with a source and a target separated by a TAB",
                              name, loaded.warnings)};
  }
  invalid_utf8.appendWarning(name, loaded.warnings);
  return loaded;
}

Expected<Loaded<std::vector<TranslationPair>>> TsvPairReader::read(const std::string& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return Error{bytes.error()};
  return parse(*bytes, path);
}

}  // namespace ascope
