#pragma once
// The handout page's contract, checked from the C++ tests: a document (the JSON in a page's
// #handout-data) against resources/handout/handout.schema.json and the references a schema cannot
// say, by tests/handout/check_handout_document.py under Debian's Python and python3-jsonschema.
#include <string>

namespace ascope::testing {

struct DocumentCheck {
  int exit_code = -1;  ///< 0: it holds; 1: findings; 2: could not check
  std::string output;  ///< each finding with its JSON path
};

/// Checks `document` (JSON text), written to a file in `scratch_dir` first.
DocumentCheck checkHandoutDocument(const std::string& document, const std::string& scratch_dir);

}  // namespace ascope::testing
