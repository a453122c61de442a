#pragma once
// The heads `handout --explain` asks for, computed by the engine (engine/inference/
// attention_explanation.h) with the run's newest checkpoint for the probe sample the handout
// shows first, handed to the handout as plain values (engine/handout/handout_computation.h).
#include <string>
#include <vector>

#include "app/cli/explain_choice.h"
#include "engine/handout/handout_computation.h"
#include "engine/vocabulary/expected.h"

namespace ascope::cli {

/// One computation per choice, in their order; no choice: layer 0, head 0 of the first group. A
/// group may be named as the run names it ("encoder") or as the page titles it ("encoder self").
/// An error names --explain and the value ("--explain 0:9: head 9 is out of range: …").
/// `notes` receives a line for a person where the engine has one (another checkpoint answered).
Expected<std::vector<HandoutComputation>> explainForHandout(const std::string& run_dir,
                                                            std::vector<ExplainChoice> choices,
                                                            std::vector<std::string>& notes);

}  // namespace ascope::cli
