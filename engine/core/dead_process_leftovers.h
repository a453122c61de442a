#pragma once
// What a process of this program leaves behind when it is killed (kill -9, a crash, a power cut)
// while it writes: a hidden partial video next to the target, a staging folder in /tmp. Such
// names carry the writer's process id, so the next start can remove exactly those whose writer is
// gone, and never what another running instance is still writing.
#include <regex>
#include <string>
#include <vector>

namespace ascope {

/// True when a process with id `pid` exists (signal 0 reaches it, or exists but is not ours).
bool processAlive(long pid);

/// Removes the entries of `folder` whose name matches `pattern` entirely, with the writer's
/// process id as the pattern's first group, when that process is no longer alive. A folder goes
/// with its contents (links are removed, never followed). Returns the paths removed; errors
/// (a folder that cannot be read, an entry that cannot be removed) leave things as they are.
std::vector<std::string> removeLeftoversOfDeadProcesses(const std::string& folder,
                                                        const std::regex& pattern);

}  // namespace ascope
