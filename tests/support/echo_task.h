#pragma once
// A fourth task that exists only in tests: "does the text contain the word yes?", registered at
// run time to prove that the CLI and the GUI pick up a task from the registry alone, with no
// other change (docs/ARCHITECTURE.md, "Adding a task"). Plain C++: Qt tests include it.
#include "engine/vocabulary/expected.h"

namespace ascope {

inline constexpr char kEchoTaskId[] = "echo";

/// Registers the echo task once (later calls do nothing).
Status registerEchoTask();

}  // namespace ascope
