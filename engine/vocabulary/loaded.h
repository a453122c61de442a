#pragma once
// What every real-dataset loader returns, and the policy all of them follow for bad input.
//
// Skip and count (the load goes on; `warnings` says how many and where the first few were):
//   a CSV row with a missing column, an unknown label or an unterminated quote; a JSON line that is
//   not JSON or lacks the chosen languages; a TSV line with fewer than two columns; a translation
//   pair with an empty side; an empty review file; an image that fails to decode; invalid UTF-8
//   (replaced by U+FFFD, counted).
// Stop the load (an Error naming the file and the line, record or value):
//   a missing file or folder, an empty file, a CIFAR batch whose size is not a multiple of 3073
//   bytes or with a label above 9, a CSV header without the expected columns, a file in which no
//   record is valid, moses pair files with different line counts, a folder holding no usable data.
// The line between the two: a few bad records in 50,000 is what people have on disk and want
// trained on anyway; a wrong file or layout means the user pointed at the wrong thing.
#include <string>
#include <vector>

namespace ascope {

/// A dataset plus the warnings a person should see (skipped records, replaced bytes).
template <class Dataset>
struct Loaded {
  Dataset dataset;
  std::vector<std::string> warnings;
};

}  // namespace ascope
