// Temporary files that a killed process cannot leave behind for long: each name carries the
// pid of its writer, and the next writer in the same folder removes those whose writer is gone
// (SIGKILL runs no destructor).
#pragma once

#include <string>

namespace infinicts::report {

// "<prefix><pid><suffix>" for this process.
std::string PidTaggedName(const std::string &prefix, const std::string &suffix);

// Removes every "<prefix><pid><suffix>..." in `dir` (anything may follow the suffix, such as
// mkstemp's letters) whose process no longer exists. Never touches a live writer's file.
void RemoveStaleTemporaries(const std::string &dir, const std::string &prefix, const std::string &suffix);

}  // namespace infinicts::report
