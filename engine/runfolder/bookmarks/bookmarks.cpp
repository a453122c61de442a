#include "engine/runfolder/bookmarks/bookmarks.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <system_error>

#include "engine/core/json_file.h"

namespace ascope {
namespace {

/// Hundreds of notes are a long lecture; a larger file is not one we wrote.
constexpr std::uint64_t kMaxBookmarksBytes = std::uint64_t{4} << 20;
/// A note is a sentence or two; longer text is cut rather than refused.
constexpr std::size_t kMaxNoteBytes = 4096;

/// The first `max_bytes` of `note`, cut before a character rather than inside one: a note cut
/// mid-character would no longer be UTF-8, which the JSON writer refuses.
std::string cutNote(const std::string& note, std::size_t max_bytes) {
  if (note.size() <= max_bytes) return note;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(note[end]) & 0xC0) == 0x80) --end;
  return note.substr(0, end);
}

void sortByStep(std::vector<Bookmark>& bookmarks) {
  std::stable_sort(bookmarks.begin(), bookmarks.end(),
                   [](const Bookmark& a, const Bookmark& b) { return a.step < b.step; });
}

}  // namespace

std::string bookmarksPath(const std::string& run_dir) {
  return run_dir + "/bookmarks.json";
}

Expected<std::vector<Bookmark>> readBookmarks(const std::string& run_dir) {
  const std::string path = bookmarksPath(run_dir);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::vector<Bookmark>{};
  Expected<nlohmann::json> json = readJsonFile(path, {kMaxBookmarksBytes, 8}, Links::kRefuse);
  if (!json.ok()) return Error{json.error()};
  const auto list = json->find("bookmarks");
  if (!json->is_object() || list == json->end() || !list->is_array()) {
    return Error{path + ": expected an object with a \"bookmarks\" array"};
  }
  if (list->size() > kMaxBookmarks) {
    // 100,000 markers froze the window for 40 s: refused, the file left as it is.
    return Error{path + ": " + std::to_string(list->size()) + " bookmarks, more than the " +
                 std::to_string(kMaxBookmarks) + " a run keeps; remove some from the file"};
  }
  std::vector<Bookmark> bookmarks;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& entry = (*list)[i];
    const std::string where = path + ": bookmark " + std::to_string(i + 1);
    if (!entry.is_object()) return Error{where + " is not an object"};
    const auto step = entry.find("step");
    if (step == entry.end() || !step->is_number_integer() ||
        (step->is_number_unsigned() &&
         step->get<std::uint64_t>() >
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
      return Error{where + ": \"step\" must be a whole number, not " +
                   (step == entry.end() ? std::string("missing") : step->dump())};
    }
    if (step->get<std::int64_t>() < 0) {
      return Error{where + ": \"step\" must not be negative, not " + step->dump()};
    }
    Bookmark bookmark;
    bookmark.step = step->get<std::int64_t>();
    const auto note = entry.find("note");
    if (note != entry.end() && !note->is_string()) {
      return Error{where + ": \"note\" must be text, not " + note->dump()};
    }
    if (note != entry.end()) bookmark.note = cutNote(note->get<std::string>(), kMaxNoteBytes);
    bookmarks.push_back(std::move(bookmark));
  }
  sortByStep(bookmarks);
  return bookmarks;
}

Status writeBookmarks(const std::string& run_dir, std::vector<Bookmark> bookmarks) {
  if (bookmarks.size() > kMaxBookmarks) {
    return Error{bookmarksPath(run_dir) + ": a run keeps at most " + std::to_string(kMaxBookmarks) +
                 " bookmarks"};
  }
  sortByStep(bookmarks);
  nlohmann::json list = nlohmann::json::array();
  for (const Bookmark& b : bookmarks) list.push_back({{"step", b.step}, {"note", b.note}});
  return writeJsonFile(bookmarksPath(run_dir), nlohmann::json{{"bookmarks", std::move(list)}});
}

}  // namespace ascope
