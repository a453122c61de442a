#pragma once
// The lecturer's notes on steps of a run (docs/ARCHITECTURE.md, "Run folder": bookmarks.json).
// Plain C++ so that the CLI could list them too; the GUI reads and writes them off its thread.
//
//   {"bookmarks": [{"step": 120, "note": "heads start to specialise"}, ...]}
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct Bookmark {
  std::int64_t step = 0;
  std::string note;

  bool operator==(const Bookmark& other) const { return step == other.step && note == other.note; }
};

/// A lecture's notes are dozens; each is a marker on two plots, and 100,000 of them froze the
/// window.
inline constexpr std::size_t kMaxBookmarks = 1000;

/// RUN_DIR/bookmarks.json.
std::string bookmarksPath(const std::string& run_dir);

/// The bookmarks of a run folder, by step; none when the folder has no bookmarks.json. A damaged
/// file is an error naming the file and the line (bad JSON) or the bookmark and field (bad value),
/// and so is one of more than kMaxBookmarks bookmarks.
Expected<std::vector<Bookmark>> readBookmarks(const std::string& run_dir);

/// Replaces the folder's bookmarks.json atomically (temp file + rename); sorted by step. More than
/// kMaxBookmarks are refused.
Status writeBookmarks(const std::string& run_dir, std::vector<Bookmark> bookmarks);

}  // namespace ascope
