#pragma once
// Help texts about the registered tasks, built from the task registry when the parser is set up, so
// that a task registered at start-up (a test's fake one) is listed like the built-in ones.
#include <string>

namespace ascope::cli {

/// "a, b or c": the ids --task accepts.
std::string taskIds();

/// A "tasks:" block for a help footer: each task's id and title, then the data it reads.
std::string taskListing();

/// The ids of the tasks with a source and a target language, "" when there is none.
std::string languagePairTaskIds();

/// The ids of the tasks whose splits `split` writes (TaskDescriptor::text_splits), "" when there
/// is none.
std::string textSplitTaskIds();

}  // namespace ascope::cli
