#pragma once
// `handout --explain GROUP:LAYER:HEAD[:QUERY:KEY]`: which head of which layer the handout shows as
// a computation, and the cell it takes apart first. The group may be left out (LAYER:HEAD…: the
// model's first group); without QUERY:KEY the page opens the head's strongest cell.
#include <CLI/CLI.hpp>

#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope::cli {

struct ExplainChoice {
  std::string text;   ///< as given, for the messages that name it
  std::string group;  ///< "" for the model's first group; a name or a title as the run shows it
  int layer = 0;
  int head = 0;
  int query = -1;  ///< -1 (with key): the strongest cell
  int key = -1;
};

/// The choice `text` spells, or why it spells none ("\"0:x\" is not …").
Expected<ExplainChoice> parseExplainChoice(const std::string& text);

/// parseExplainChoice as CLI11's check of --explain: a malformed value is a usage error.
extern const CLI::Validator kExplainChoice;

}  // namespace ascope::cli
