// Reading a report back (for `infinicts compare` and `infinicts report`): the file
// must parse as JSON and validate against the report schema, or the reader gets
// one clear reason and nothing half-read.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace infinicts::report {

// False with *error = "<path>: <why>" (unreadable, not JSON, or the first schema
// violations) when the file is not a report this tool can read.
bool LoadReportFile(const std::string &path, nlohmann::json *report, std::string *error);

}  // namespace infinicts::report
