#pragma once
// `infer` with a minimal pair: the heads whose attention the pair's difference moved most, one line
// each, for a person reading the terminal.
#include <cstddef>
#include <string>

#include "engine/analysis/minimal_pair.h"

namespace ascope::cli {

/// "heads that changed most …:" and up to `most` lines, most changed first:
/// "  encoder · layer 1 · head 0  change 0.214  most at query \"big → small\" (0.530)".
/// Layers and heads count from 0, as `inspect`, `ablate` and the window number them.
std::string headChangeList(const HeadChangeRanking& ranking, std::size_t most);

}  // namespace ascope::cli
