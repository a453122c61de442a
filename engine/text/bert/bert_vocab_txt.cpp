#include "engine/text/bert/bert_vocab_txt.h"

#include <unordered_map>

#include "engine/core/regular_file.h"
#include "engine/text/unicode/utf8_repair.h"

namespace ascope {

Expected<std::vector<std::string>> parseVocabTxt(std::string_view text, const std::string& name) {
  std::vector<std::string> tokens;
  std::unordered_map<std::string_view, std::size_t> first_line;  // views into `text`
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = begin;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    const std::string_view token = text.substr(begin, end - begin);
    const std::size_t line = tokens.size() + 1;

    std::size_t replaced = 0;
    repairUtf8(token, &replaced);
    if (replaced > 0) return Error{name + ": line " + std::to_string(line) + " is not UTF-8"};
    const auto [it, inserted] = first_line.emplace(token, line);
    if (!inserted) {
      return Error{name + ": line " + std::to_string(line) + " repeats the token \"" +
                   std::string(token) + "\" of line " + std::to_string(it->second)};
    }
    tokens.emplace_back(token);

    if (end < text.size() && text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') {
      ++end;
    }
    begin = end + 1;
  }
  return tokens;
}

Expected<std::vector<std::string>> readVocabTxt(const std::string& path) {
  auto bytes = readRegularFile(path, kMaxVocabTxtBytes);
  if (!bytes) return Error{bytes.error()};
  return parseVocabTxt(*bytes, path);
}

}  // namespace ascope
